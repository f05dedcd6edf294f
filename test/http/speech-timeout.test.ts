import { describe, expect, it } from 'vitest';
import { speechTimeoutMs } from '../../functions/http/answers/spoken-audio';

describe('speechTimeoutMs', () => {
  it.each([
    ['a fresh invocation: the turn deadline', 25_000, 28_000, 25_000],
    ['after a long turn: what the invocation leaves, less a second', 25_000, 6_000, 5_000],
    [
      'an invocation all but over: still a positive budget, which times out at once',
      25_000,
      200,
      1,
    ],
  ])('%s', (_, deadline, timeLeft, expected) => {
    expect(speechTimeoutMs(deadline, timeLeft)).toBe(expected);
  });
});
