const ONES: readonly string[] = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];

const TENS: ReadonlyMap<string, number> = new Map([
  ['twenty', 20],
  ['thirty', 30],
  ['forty', 40],
  ['fifty', 50],
  ['sixty', 60],
  ['seventy', 70],
  ['eighty', 80],
  ['ninety', 90],
]);

const MAX_DIGITS = 7;

/**
 * The whole number a count is written as: digits (up to seven), `a`/`an` (one), or English words
 * up to ninety-nine joined by underscores as normalized terms are (`twenty_five`). Speech-to-text
 * writes "in twenty minutes" as often as "in 20 minutes", and chrono knows words only to twelve.
 * Null for anything else.
 */
export function parseCount(text: string): number | null {
  if (new RegExp(`^\\d{1,${MAX_DIGITS}}$`).test(text)) {
    return Number(text);
  }
  if (text === 'a' || text === 'an') {
    return 1;
  }
  const [first = '', second, ...rest] = text.split('_');
  if (rest.length > 0) {
    return null;
  }
  const ones = ONES.indexOf(first);
  const tens = TENS.get(first);
  if (second === undefined) {
    return ones !== -1 ? ones : (tens ?? null);
  }
  const unit = ONES.indexOf(second);
  return tens !== undefined && unit >= 1 && unit <= 9 ? tens + unit : null;
}
