import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BackoffSettings,
  backoffDelayMs,
  readRetryAfterMs,
} from '../../../shared/adapters/openai/retry-delay';

const now = Date.parse('2026-01-17T12:00:00Z');

describe('readRetryAfterMs', () => {
  it.each<[string, Record<string, string>, number | null]>([
    ['retry-after-ms', { 'retry-after-ms': '250' }, 250],
    ['fractional retry-after-ms', { 'retry-after-ms': '12.5' }, 12.5],
    ['Retry-After in seconds', { 'retry-after': '2' }, 2_000],
    ['Retry-After as an HTTP date', { 'retry-after': 'Sat, 17 Jan 2026 12:00:03 GMT' }, 3_000],
    ['Retry-After as a date already past', { 'retry-after': 'Sat, 17 Jan 2026 11:00:00 GMT' }, 0],
    ['retry-after-ms before Retry-After', { 'retry-after-ms': '100', 'retry-after': '9' }, 100],
    [
      'an unreadable retry-after-ms, then Retry-After',
      { 'retry-after-ms': 'soon', 'retry-after': '1' },
      1_000,
    ],
    ['a negative Retry-After', { 'retry-after': '-1' }, null],
    ['an unreadable Retry-After', { 'retry-after': 'later' }, null],
    ['no header', {}, null],
  ])('reads %s', (_case, headers, expected) => {
    // Prepare
    const received = new Headers(headers);

    // Act
    const delay = readRetryAfterMs(received, now);

    // Assess
    expect(delay).toBe(expected);
  });

  it('reads nothing when there are no headers at all', () => {
    expect(readRetryAfterMs(undefined, now)).toBeNull();
  });
});

describe('backoffDelayMs', () => {
  const settings: BackoffSettings = { baseDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 5 };

  it.each([
    [1, 0, 50],
    [1, 0.5, 75],
    [2, 0, 100],
    [3, 0.5, 300],
    [4, 0, 400],
    [5, 0, 500],
    [9, 0, 500],
  ])('waits, before retry %i with random %d, %d ms', (retryNumber, random, expected) => {
    expect(backoffDelayMs(retryNumber, settings, random)).toBe(expected);
  });

  it('stays between half and all of the capped exponential delay', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retryNumber, random) => {
          // Act
          const delay = backoffDelayMs(retryNumber, settings, random);

          // Assess
          const capped = Math.min(
            settings.maxDelayMs,
            settings.baseDelayMs * 2 ** (retryNumber - 1),
          );
          expect(delay).toBeGreaterThanOrEqual(capped / 2);
          expect(delay).toBeLessThanOrEqual(capped);
        },
      ),
    );
  });

  it('never shrinks from one retry to the next for the same random draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retryNumber, random) => {
          expect(backoffDelayMs(retryNumber + 1, settings, random)).toBeGreaterThanOrEqual(
            backoffDelayMs(retryNumber, settings, random),
          );
        },
      ),
    );
  });
});
