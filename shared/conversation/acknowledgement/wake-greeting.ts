/**
 * What a node says when it hears its wake word ("Good morning. How can I help?"). Chosen from a
 * few short phrases, with no model call: the node waits for it before it listens, so it must come
 * back in milliseconds and never fail. The part of the day (on the node's own clock) and the
 * caller's random number make it vary; the same inputs always give the same phrase.
 */

export const PartOfDay = {
  morning: 'morning',
  afternoon: 'afternoon',
  evening: 'evening',
  night: 'night',
} as const;
export type PartOfDay = (typeof PartOfDay)[keyof typeof PartOfDay];

/** Phrases that fit at any hour. */
export const ANY_TIME_GREETINGS: readonly string[] = [
  'Yes?',
  'How can I help?',
  "I'm listening.",
  'What can I do for you?',
  'Go ahead.',
];

/** Phrases that fit one part of the day only; at night they are quieter, not a "good night". */
export const PART_OF_DAY_GREETINGS: Readonly<Record<PartOfDay, readonly string[]>> = {
  morning: ['Good morning. How can I help?', 'Morning! What do you need?'],
  afternoon: ['Good afternoon. What can I do for you?', 'Afternoon! How can I help?'],
  evening: ['Good evening. How can I help?', 'Evening! What do you need?'],
  night: ["I'm here. What do you need?", "Yes? I'm listening."],
};

/** The part of the day of a local hour (0-23): morning from 5, afternoon from 12, evening from 17, night from 22. */
export function partOfDay(hour: number): PartOfDay {
  if (hour >= 5 && hour < 12) return PartOfDay.morning;
  if (hour >= 12 && hour < 17) return PartOfDay.afternoon;
  if (hour >= 17 && hour < 22) return PartOfDay.evening;
  return PartOfDay.night;
}

/** The phrases a greeting at `hour` is chosen from; any-time ones only when the hour is unknown. */
export function wakeGreetingsAt(hour: number | null): readonly string[] {
  if (hour === null || !Number.isInteger(hour) || hour < 0 || hour > 23) return ANY_TIME_GREETINGS;
  return [...PART_OF_DAY_GREETINGS[partOfDay(hour)], ...ANY_TIME_GREETINGS];
}

/**
 * A greeting for a node whose clock reads `hour` (null: unknown), chosen by `random` in [0, 1)
 * (a value outside it picks the first phrase rather than failing).
 */
export function wakeGreeting(hour: number | null, random: number): string {
  const phrases = wakeGreetingsAt(hour);
  const index = random >= 0 && random < 1 ? Math.floor(random * phrases.length) : 0;
  return phrases[index] ?? ANY_TIME_GREETINGS[0] ?? 'Yes?';
}
