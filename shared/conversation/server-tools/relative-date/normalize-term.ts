// Words a model adds around a term without changing it ("the day after tomorrow", "right now").
// A Map, so that no term can match a prototype key such as `constructor`.
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['right_now', 'now'],
  ['this_night', 'tonight'],
  ['today_morning', 'this_morning'],
  ['today_afternoon', 'this_afternoon'],
  ['today_evening', 'this_evening'],
  ['today_night', 'tonight'],
  ['weekend', 'this_weekend'],
  ['week', 'this_week'],
  ['in_half_an_hour', 'in_30_minutes'],
]);

/**
 * The canonical spelling of a term: trimmed, lower case, spaces, hyphens and underscores alike
 * (`Next-Friday`, `next friday` and `next_friday` are one term), a leading `the` and surrounding
 * quotes or closing punctuation dropped, and a few aliases mapped.
 */
export function normalizeTerm(raw: string): string {
  const words = raw
    .trim()
    .toLowerCase()
    .replace(/^["'`]+|["'`.!?,;:]+$/g, '')
    .replace(/[\s_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^the_/, '');
  return ALIASES.get(words) ?? words;
}
