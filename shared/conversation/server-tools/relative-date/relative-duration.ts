import { parseCount } from './number-words';

/**
 * A spoken duration split the way it is applied: calendar days first (a day keeps the clock time
 * across DST), then elapsed milliseconds (an hour is always 60 minutes).
 */
export interface RelativeDuration {
  readonly days: number;
  readonly milliseconds: number;
}

const MILLISECONDS_PER_UNIT: ReadonlyMap<string, number> = new Map([
  ['second', 1_000],
  ['sec', 1_000],
  ['minute', 60_000],
  ['min', 60_000],
  ['hour', 3_600_000],
  ['hr', 3_600_000],
]);

const DAYS_PER_UNIT: ReadonlyMap<string, number> = new Map([
  ['day', 1],
  ['week', 7],
]);

const MAX_PARTS = 4;
const DECIMAL = /^\d{1,7}\.\d{1,3}$/;

const unitName = (token: string | undefined): string | null => {
  const singular = token?.replace(/s$/, '') ?? '';
  return MILLISECONDS_PER_UNIT.has(singular) || DAYS_PER_UNIT.has(singular) ? singular : null;
};

interface Part {
  readonly count: number;
  readonly unit: string;
}

/** `count unit` pairs such as 1 hour, twenty five minutes, an hour, 1.5 hours (and a half). */
const parseParts = (tokens: readonly string[]): Part[] | null => {
  const parts: Part[] = [];
  let index = 0;
  while (index < tokens.length && parts.length <= MAX_PARTS) {
    const previous = parts[parts.length - 1];
    if (previous !== undefined && tokens[index] === 'a' && tokens[index + 1] === 'half') {
      parts.push({ count: 0.5, unit: previous.unit });
      index += 2;
      continue;
    }
    // A count is one token (20, twenty, an) or two (twenty five), then comes its unit.
    const unitIndex = [index + 1, index + 2].find(
      (candidate) => unitName(tokens[candidate]) !== null,
    );
    const unit = unitIndex === undefined ? null : unitName(tokens[unitIndex]);
    if (unitIndex === undefined || unit === null) {
      return null;
    }
    const countText = tokens.slice(index, unitIndex).join('_');
    const count = DECIMAL.test(countText) ? Number(countText) : parseCount(countText);
    if (count === null) {
      return null;
    }
    parts.push({ count, unit });
    index = unitIndex + 1;
  }
  return parts.length > 0 && parts.length <= MAX_PARTS ? parts : null;
};

/**
 * Reads a normalized duration such as `1_hour_and_30_minutes`, `an_hour_and_a_half`,
 * `2_days_3_hours` or `1.5_hours`. Fractions are allowed for hours, minutes and seconds, not for
 * days or weeks (half a day is not a calendar notion). Null if the text is not a duration.
 */
export function parseRelativeDuration(text: string): RelativeDuration | null {
  const tokens = text
    .split('_')
    .map((token) => token.replace(/,$/, ''))
    .filter((token) => token !== '' && token !== 'and');
  const parts = parseParts(tokens);
  if (parts === null) {
    return null;
  }
  let days = 0;
  let milliseconds = 0;
  for (const { count, unit } of parts) {
    const daysPerUnit = DAYS_PER_UNIT.get(unit);
    if (daysPerUnit !== undefined && !Number.isInteger(count)) {
      return null;
    }
    days += daysPerUnit === undefined ? 0 : count * daysPerUnit;
    milliseconds += count * (MILLISECONDS_PER_UNIT.get(unit) ?? 0);
  }
  return { days, milliseconds: Math.round(milliseconds) };
}
