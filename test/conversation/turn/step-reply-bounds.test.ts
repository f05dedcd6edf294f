import { describe, expect, it } from 'vitest';
import {
  assertValidHistory,
  call,
  compile,
  fixtureRegistration,
  reply,
  runScripted,
  turnContext,
} from '../../support/engine-fixtures';

const commandSet = compile(fixtureRegistration());

describe('step: a number JSON cannot carry exactly (llm-failure-modes.md)', () => {
  it.each([
    ['1e400', '{"duration_seconds": 1e400}'],
    ['an integer beyond 2^53', '{"duration_seconds": 9007199254740993}'],
  ])('%s: a retry naming the parameter, never null or rounded', (_case, args) => {
    // Act
    const { outcome, state } = runScripted(turnContext(commandSet), [
      reply(null, [{ id: 'call_a', name: 'set_timer', arguments: args }]),
      reply(null, [call('set_timer', { duration_seconds: 300 }, 'call_b')]),
    ]);

    // Assess
    expect(outcome.modelCalls).toBe(2);
    expect(outcome.retries[0]?.issues.map((issue) => [issue.code, issue.parameter])).toEqual([
      ['number_not_exact', 'duration_seconds'],
    ]);
    expect(outcome.toolCalls.map((toolCall) => toolCall.arguments)).toEqual([
      '{"duration_seconds":300}',
    ]);
    // What the model sent is recorded as it sent it: the number is not rewritten there either.
    expect(JSON.stringify(state.messages)).toContain(
      JSON.stringify(args.slice(22, -1)).slice(1, -1),
    );
    assertValidHistory(state.messages);
  });
});
