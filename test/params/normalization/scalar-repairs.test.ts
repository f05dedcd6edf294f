import { describe, expect, it } from 'vitest';
import type { NormalizationPolicy, ScalarType } from '../../../shared/params';
import { repairScalar } from '../../../shared/params/normalization/scalar-repairs';

const NOT_REPAIRED = Symbol('not repaired');

const CASES: readonly [ScalarType, unknown, NormalizationPolicy, unknown][] = [
  ['int', '5', 'lossless', 5],
  ['int', ' 7 ', 'lossless', 7],
  ['int', '+3', 'lossless', 3],
  ['int', '-2', 'lossless', -2],
  ['int', '5.00', 'lossless', 5],
  ['int', '5.5', 'lossless', NOT_REPAIRED],
  ['int', 'five', 'lossless', NOT_REPAIRED],
  ['int', '1e3', 'lossless', NOT_REPAIRED],
  ['int', '99999999999999999999', 'lossless', NOT_REPAIRED],
  ['int', true, 'lenient', NOT_REPAIRED],
  ['float', '2', 'lossless', 2],
  ['float', '2.5', 'lossless', 2.5],
  ['float', '.5', 'lossless', 0.5],
  ['float', '-1e3', 'lossless', -1000],
  ['float', 'NaN', 'lossless', NOT_REPAIRED],
  ['float', 'Infinity', 'lossless', NOT_REPAIRED],
  ['float', '', 'lossless', NOT_REPAIRED],
  ['float', '0x10', 'lossless', NOT_REPAIRED],
  ['bool', 'TRUE', 'lossless', true],
  ['bool', ' false ', 'lossless', false],
  ['bool', 'yes', 'lossless', NOT_REPAIRED],
  ['bool', 1, 'lossless', NOT_REPAIRED],
  ['bool', 'Yes', 'lenient', true],
  ['bool', 'off', 'lenient', false],
  ['bool', 'on', 'lenient', true],
  ['bool', 'no', 'lenient', false],
  ['bool', '1', 'lenient', true],
  ['bool', 0, 'lenient', false],
  ['bool', 2, 'lenient', NOT_REPAIRED],
  ['datetime', '2026-01-18t05:00:00z', 'lossless', '2026-01-18T05:00:00Z'],
  ['datetime', '2026-01-18 05:00:00Z', 'lossless', '2026-01-18T05:00:00Z'],
  ['datetime', '2026-01-18T05:00Z', 'lossless', '2026-01-18T05:00:00Z'],
  ['datetime', '2026-01-18T05:00:00.250-05:00', 'lossless', NOT_REPAIRED],
  ['datetime', '2026-01-18T05:00:00+0100', 'lossless', '2026-01-18T05:00:00+01:00'],
  ['datetime', ' 2026-01-18T05:00:00Z ', 'lossless', '2026-01-18T05:00:00Z'],
  ['datetime', '2026-01-18T05:00:00', 'lossless', NOT_REPAIRED],
  ['datetime', '2026-01-18 05:00', 'lenient', NOT_REPAIRED],
  ['datetime', '2026-02-30T05:00:00z', 'lossless', NOT_REPAIRED],
  ['datetime', 'tomorrow', 'lenient', NOT_REPAIRED],
  ['time', '9:30', 'lossless', '09:30'],
  ['time', '15:00z', 'lossless', '15:00Z'],
  ['time', '15:00+0200', 'lossless', '15:00+02:00'],
  ['time', '25:00', 'lossless', NOT_REPAIRED],
  ['time', '3pm', 'lossless', NOT_REPAIRED],
  ['timedelta', 'pt90m', 'lossless', 'PT90M'],
  ['timedelta', ' P1D ', 'lossless', 'P1D'],
  ['timedelta', '90 minutes', 'lossless', NOT_REPAIRED],
  ['date', ' 2026-01-18 ', 'lossless', '2026-01-18'],
  ['date', '2026-02-30', 'lossless', NOT_REPAIRED],
  ['date', '18/01/2026', 'lossless', NOT_REPAIRED],
  ['string', 5, 'lossless', NOT_REPAIRED],
  ['string', 5, 'lenient', '5'],
  ['string', 2.5, 'lenient', '2.5'],
  ['string', true, 'lenient', 'true'],
  ['string', Number.NaN, 'lenient', NOT_REPAIRED],
  ['string', {}, 'lenient', NOT_REPAIRED],
];

describe('repairScalar', () => {
  it.each(CASES)('repairs a %s from %j under %s to %j', (scalar, value, policy, expected) => {
    // Act
    const repair = repairScalar(scalar, value, policy);

    // Assess
    expect(repair === null ? NOT_REPAIRED : repair.value).toEqual(expected);
  });

  it.each<[ScalarType, unknown]>([
    ['int', '5'],
    ['bool', 'true'],
    ['datetime', '2026-01-18 05:00Z'],
  ])('never repairs a %s from %j under strict', (scalar, value) => {
    // Act
    const repair = repairScalar(scalar, value, 'strict');

    // Assess
    expect(repair).toBeNull();
  });
});
