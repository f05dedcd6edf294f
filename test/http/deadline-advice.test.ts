import { describe, expect, it } from 'vitest';
import {
  suggestedDeadlineMs,
  turnTimeoutMessage,
} from '../../functions/http/errors/deadline-advice';
import { mapError } from '../../functions/http/errors/error-table';
import { TurnTimeoutError } from '../../shared/conversation';

describe('the advice of a 504 turn_timeout', () => {
  it.each([
    [25_000, 50_000],
    [45_000, 90_000],
    [2_000, 5_000],
    [400_000, 600_000],
    [600_000, null],
  ])('a %i ms deadline: raise it to %s', (deadline, suggested) => {
    expect(suggestedDeadlineMs(deadline)).toBe(suggested);
  });

  it('says how long the model took, and which setting to raise to what', () => {
    // Prepare
    const error = new TurnTimeoutError(25_000, 1, { elapsedMs: 25_012 });

    // Act
    const mapped = mapError(error);

    // Assess
    expect(mapped.statusCode).toBe(504);
    expect(mapped.body.error.message).toBe(
      'The model had not answered after 25.0 s (TURN_DEADLINE_MS=25000, 25.0 s); nothing was ' +
        'changed. A model on a CPU can need that for a cold first turn: raise TURN_DEADLINE_MS to ' +
        "50000 (deployed: the stack's turnDeadlineMs, within API Gateway's limit, docs/deploy.md).",
    );
    expect(mapped.body.error.details).toEqual([
      { deadline_ms: 25_000, model_calls: 1, elapsed_ms: 25_012, suggested_deadline_ms: 50_000 },
    ]);
  });

  it('at the longest deadline, says to use a faster model instead', () => {
    expect(turnTimeoutMessage(new TurnTimeoutError(600_000, 2))).toContain(
      'That is the longest TURN_DEADLINE_MS allows: use a faster model or server.',
    );
  });
});
