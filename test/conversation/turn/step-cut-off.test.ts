import { describe, expect, it } from 'vitest';
import type { ModelReply } from '../../../shared/ports/language-model';
import { assertValidHistory, call, reply, TurnFailedError } from '../../support/engine-fixtures';
import { runStep } from '../../support/step-fixture';

const cutOff = (content: string | null, calls = [] as ReturnType<typeof call>[]): ModelReply => ({
  ...reply(content, calls),
  finishReason: 'length',
});

describe('a reply cut off at the token limit (finish_reason "length")', () => {
  it('is never spoken: it is dropped and the model asked once for a shorter reply', () => {
    const { outcome, state } = runStep([
      cutOff('The weather tomorrow in Los Angeles will be sunny with a high of'),
      reply('Sunny tomorrow, high of 24.'),
    ]);

    expect(outcome).toMatchObject({
      stopReason: 'complete',
      assistantMessage: 'Sunny tomorrow, high of 24.',
      modelCalls: 2,
    });
    expect(outcome.retries.map((retry) => retry.reason)).toEqual(['reply_cut_off']);
    expect(JSON.stringify(state.messages)).not.toContain('with a high of');
    assertValidHistory(state.messages);
  });

  it('is never handed over as a call either, even one whose arguments happen to parse', () => {
    const { outcome } = runStep([
      cutOff(null, [call('set_timer', { duration_seconds: 60 })]),
      reply(null, [call('set_timer', { duration_seconds: 600 }, 'call_whole')]),
    ]);

    expect(outcome.toolCalls.map((toolCall) => toolCall.arguments)).toEqual([
      '{"duration_seconds":600}',
    ]);
  });

  it('cut off again: the turn fails (a 502), nothing is answered from half a reply', () => {
    const run = () => runStep([cutOff('Half of one'), cutOff('Half of another')]);

    expect(run).toThrow(TurnFailedError);
    expect(run).toThrow('reply_cut_off');
  });
});

describe('token usage of a turn', () => {
  it('adds up what each model call reported', () => {
    const withUsage = (base: ModelReply, prompt: number, completion: number, cached: number) => ({
      ...base,
      usage: { promptTokens: prompt, completionTokens: completion, cachedTokens: cached },
    });
    const { outcome } = runStep([
      withUsage(
        reply(null, [call('resolve_relative_date', { relative_term: 'tomorrow' })]),
        3900,
        20,
        0,
      ),
      withUsage(reply('Tomorrow is Saturday.'), 4100, 8, 3900),
    ]);

    expect(outcome.usage).toEqual({ promptTokens: 8000, completionTokens: 28, cachedTokens: 3900 });
  });

  it('is null when the server reports none', () => {
    const { outcome } = runStep([reply('Hello.')]);
    expect(outcome.usage).toBeNull();
  });
});
