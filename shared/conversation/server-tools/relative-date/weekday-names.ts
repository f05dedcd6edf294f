/** Weekday names and the abbreviations people and models use, by day of the week (0 = Sunday). */
const WEEKDAY_SPELLINGS: readonly (readonly string[])[] = [
  ['sunday', 'sun'],
  ['monday', 'mon'],
  ['tuesday', 'tue', 'tues'],
  ['wednesday', 'wed'],
  ['thursday', 'thu', 'thur', 'thurs'],
  ['friday', 'fri'],
  ['saturday', 'sat'],
];

/** The full lower-case weekday names, Sunday first. */
export const WEEKDAY_TERMS: readonly string[] = WEEKDAY_SPELLINGS.map(
  (spellings) => spellings[0] ?? '',
);

/** The day of the week (0 = Sunday) a name or abbreviation stands for, or null. */
export function weekdayFromName(name: string): number | null {
  const index = WEEKDAY_SPELLINGS.findIndex((spellings) => spellings.includes(name));
  return index === -1 ? null : index;
}
