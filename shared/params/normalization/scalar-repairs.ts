import { isIsoDate, isIsoDateTime, isIsoDuration, isIsoTime } from '../formats/iso-formats';
import type { ScalarType } from '../types/parameter-type';
import { type NormalizationPolicy, RepairRule } from './repair';

export interface ScalarRepair {
  readonly value: unknown;
  readonly rule: RepairRule;
}

/** Whether `value` is a valid `scalar` by type and format alone (client constraints aside). */
export function isValidScalar(scalar: ScalarType, value: unknown): boolean {
  switch (scalar) {
    case 'string':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value);
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && isIsoDate(value);
    case 'datetime':
      return typeof value === 'string' && isIsoDateTime(value);
    case 'time':
      return typeof value === 'string' && isIsoTime(value);
    case 'timedelta':
      return typeof value === 'string' && isIsoDuration(value);
  }
}

const INTEGER_TEXT = /^\s*[+-]?\d+(?:\.0*)?\s*$/;
const NUMBER_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
// Matched against the trimmed text: blanks on both sides of an optional part make a regular
// expression quadratic in the blanks (a 16 KB argument of spaces cost 120 ms).
const DATE_TIME_TEXT =
  /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?\s*(?:([zZ])|([+-]\d{2}):?(\d{2}))?$/;
const TIME_TEXT = /^(\d{1,2})(:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(?:([zZ])|([+-]\d{2}):?(\d{2}))?$/;
const LENIENT_BOOLEANS: ReadonlyMap<unknown, boolean> = new Map<unknown, boolean>([
  ['yes', true],
  ['no', false],
  ['on', true],
  ['off', false],
  ['1', true],
  ['0', false],
  [1, true],
  [0, false],
]);

/**
 * The repaired form of an invalid scalar, or null when no rule of `policy` makes it valid (strict
 * has none). Every rule keeps the meaning; a repair is only returned when its result is valid.
 */
export function repairScalar(
  scalar: ScalarType,
  value: unknown,
  policy: NormalizationPolicy,
): ScalarRepair | null {
  if (policy === 'strict') return null;
  const repair = candidateRepair(scalar, value, policy);
  if (repair === null || repair.value === value || !isValidScalar(scalar, repair.value))
    return null;
  return repair;
}

function candidateRepair(
  scalar: ScalarType,
  value: unknown,
  policy: NormalizationPolicy,
): ScalarRepair | null {
  const lenient = policy === 'lenient';
  if (scalar === 'string') {
    const convertible =
      typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
    return lenient && convertible
      ? { value: String(value), rule: RepairRule.stringifyScalar }
      : null;
  }
  if (scalar === 'bool') return booleanRepair(value, lenient);
  if (typeof value !== 'string') return null;
  switch (scalar) {
    case 'int':
      // Past 2^53 the number would not be the one written: leave it for the model.
      return INTEGER_TEXT.test(value) && Number.isSafeInteger(Number(value))
        ? { value: Number(value), rule: RepairRule.parseIntegerString }
        : null;
    case 'float':
      return NUMBER_TEXT.test(value)
        ? { value: Number(value), rule: RepairRule.parseNumberString }
        : null;
    case 'date':
      return { value: value.trim(), rule: RepairRule.canonicalizeDate };
    case 'datetime':
      return canonicalDateTime(value);
    case 'time':
      return canonicalTime(value);
    case 'timedelta':
      return { value: value.trim().toUpperCase(), rule: RepairRule.canonicalizeDuration };
  }
}

function booleanRepair(value: unknown, lenient: boolean): ScalarRepair | null {
  const word = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (word === 'true' || word === 'false') {
    return { value: word === 'true', rule: RepairRule.parseBooleanString };
  }
  const lenientValue = LENIENT_BOOLEANS.get(word);
  if (!lenient || lenientValue === undefined) return null;
  return { value: lenientValue, rule: RepairRule.booleanFromWord };
}

// Only the spelling changes: a date-time without a zone stays without one (and invalid).
function canonicalDateTime(text: string): ScalarRepair | null {
  const match = DATE_TIME_TEXT.exec(text.trim());
  if (match === null) return null;
  const [, date, hoursMinutes, seconds, utc, offsetHours, offsetMinutes] = match;
  const zone = utc === undefined ? `${offsetHours ?? ''}:${offsetMinutes ?? ''}` : 'Z';
  if (zone === ':') return null;
  return {
    value: `${date}T${hoursMinutes}${seconds ?? ':00'}${zone}`,
    rule: RepairRule.canonicalizeDateTime,
  };
}

function canonicalTime(text: string): ScalarRepair | null {
  const match = TIME_TEXT.exec(text.trim());
  if (match === null) return null;
  const [, hours = '', rest, utc, offsetHours, offsetMinutes] = match;
  const offset = offsetHours === undefined ? '' : `${offsetHours}:${offsetMinutes ?? ''}`;
  const zone = utc === undefined ? offset : 'Z';
  return { value: `${hours.padStart(2, '0')}${rest}${zone}`, rule: RepairRule.canonicalizeTime };
}
