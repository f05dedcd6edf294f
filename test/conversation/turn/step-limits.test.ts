import { describe, expect, it } from 'vitest';
import {
  MAX_PENDING_CALLS,
  MAX_SERVER_CALLS_PER_REPLY,
} from '../../../shared/conversation/turn/call-limits';
import { assertValidHistory, call, reply } from '../../support/engine-fixtures';
import { runStep, timerCall } from '../../support/step-fixture';

/** What `continue` accepts as an id (functions/http/contract/request-schemas.ts ID_PATTERN, 128 max). */
const ANSWERABLE_ID = /^[\x21-\x7E]{1,128}$/;

describe('tool-call ids the node can always answer (hostile corpus rows 4 and 8)', () => {
  it('a retry reusing an earlier id gets a fresh one: the node never sees two calls with one id', () => {
    const { outcome, state } = runStep([
      reply(null, [timerCall(60, 'call_0'), call('calculate', { num1: 1 }, 'call_1')]),
      reply(null, [timerCall(120, 'call_0')]),
    ]);

    const ids = outcome.toolCalls.map((toolCall) => toolCall.id);
    expect(outcome.stopReason).toBe('tool_calls');
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    expect(ids[0]).toBe('call_0');
    assertValidHistory(state.messages);
  });

  it('an id already used earlier in the conversation is not handed out again', () => {
    const earlier = [
      { role: 'user' as const, content: 'set a timer' },
      {
        role: 'assistant' as const,
        content: null,
        toolCalls: [{ id: 'call_7', name: 'set_timer', arguments: '{}' }],
      },
      { role: 'tool' as const, toolCallId: 'call_7', content: 'ok' },
      { role: 'user' as const, content: 'another one' },
    ];
    const { outcome } = runStep([reply(null, [timerCall(60, 'call_7')])], { messages: earlier });
    expect(outcome.toolCalls[0]?.id).not.toBe('call_7');
  });

  it.each([
    ['a space', 'call 1'],
    ['more than 64 characters', `call_${'x'.repeat(130)}`],
    ['non-ASCII', 'appel_é'],
    ['a control character', 'call\u0000'],
  ])('an id with %s is replaced by one continue accepts', (_case, id) => {
    const { outcome } = runStep([reply(null, [timerCall(60, id)])]);
    const [only] = outcome.toolCalls;
    expect(only?.id).not.toBe(id);
    expect(only?.id).toMatch(ANSWERABLE_ID);
  });
});

describe('calls per reply are bounded (hostile corpus rows 6 and 7)', () => {
  it(`40 valid node calls: at most ${MAX_PENDING_CALLS} reach the node, the rest are refused and retried`, () => {
    const forty = Array.from({ length: 40 }, (_, index) => timerCall(index + 1, `call_${index}`));
    const { outcome, state } = runStep([reply(null, forty), reply('Those are all the timers.')]);

    expect(outcome.stopReason).toBe('tool_calls');
    expect(outcome.toolCalls).toHaveLength(MAX_PENDING_CALLS);
    expect(outcome.retries.map((retry) => retry.reason)).toEqual(['too_many_calls']);
    assertValidHistory(state.messages);
  });

  it(`200 server-tool calls: ${MAX_SERVER_CALLS_PER_REPLY} run, the rest never reach the next request`, () => {
    const flood = Array.from({ length: 200 }, (_, index) =>
      call('resolve_relative_date', { relative_term: 'tomorrow' }, `call_${index}`),
    );
    const { outcome, state } = runStep([reply(null, flood), reply('Tomorrow is Saturday.')]);

    const toolMessages = state.messages.filter((message) => message.role === 'tool');
    const ran = toolMessages.filter((message) => !message.content.includes('"error"'));
    expect(outcome).toMatchObject({ stopReason: 'complete', modelCalls: 2 });
    expect(ran).toHaveLength(MAX_SERVER_CALLS_PER_REPLY);
    expect(toolMessages.length).toBeLessThanOrEqual(32);
    expect(JSON.stringify(state.messages).length).toBeLessThan(40_000);
    assertValidHistory(state.messages);
  });
});
