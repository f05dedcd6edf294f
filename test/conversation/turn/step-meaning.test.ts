import { describe, expect, it } from 'vitest';
import { assertValidHistory, call, compile, reply } from '../../support/engine-fixtures';
import { runStep, TOMORROW } from '../../support/step-fixture';

/** llm-failure-modes.md, "Meaning": never repaired; one retry each, then the fix is accepted. */
const ROWS = [
  {
    row: '["tomorrow"] for array<datetime>',
    bad: call('get_weather', { resolved_datetimes: ['tomorrow'] }),
    hint: /resolve_relative_date/,
  },
  {
    row: '"next week" for array<datetime>',
    bad: call('get_weather', { resolved_datetimes: 'next week' }),
    hint: /ISO-8601/,
  },
  {
    row: 'a datetime without a zone',
    bad: call('get_weather', { resolved_datetimes: ['2026-01-18T05:00:00'] }),
    hint: /zone/i,
  },
  {
    row: 'an enum miss',
    bad: call('calculate', { num1: 2, num2: 3, operation: 'power' }),
    hint: /add.*subtract.*multiply.*divide/,
  },
  {
    row: 'a wrong parameter name',
    bad: call('answer_question', { question: 'why?' }),
    hint: /query/,
  },
  { row: 'a tool that does not exist', bad: call('get_location', {}), hint: /get_weather/ },
  {
    row: 'a required parameter left out',
    bad: call('get_weather', { city: 'Paris' }),
    hint: /resolved_datetimes/,
  },
] as const;

describe('step: meaning (llm-failure-modes.md)', () => {
  it.each(ROWS)('$row: retry (+1 call) with a message that says what to send', ({ bad, hint }) => {
    // Prepare
    const fixed = call('get_weather', { resolved_datetimes: TOMORROW }, 'call_fixed');

    // Act
    const { outcome, state } = runStep([reply(null, [bad]), reply(null, [fixed])]);

    // Assess
    expect(outcome.stopReason).toBe('tool_calls');
    expect(outcome.modelCalls).toBe(2);
    expect(outcome.retries).toHaveLength(1);
    const retryMessage = state.messages.find((message) => message.role === 'system');
    expect(retryMessage?.content).toMatch(hint);
    expect(JSON.parse(outcome.toolCalls[0]?.arguments ?? '')).toEqual({
      resolved_datetimes: TOMORROW,
    });
    assertValidHistory(state.messages);
  });

  it('a 2026-02-30 date is a retry', () => {
    const set = compile({
      available_commands: [
        { command_name: 'plan', parameters: [{ name: 'day', type: 'date', required: true }] },
      ],
    });
    const { outcome } = runStep(
      [
        reply(null, [call('plan', { day: '2026-02-30' })]),
        reply(null, [call('plan', { day: '2026-02-28' })]),
      ],
      { commandSet: set },
    );
    expect(outcome.modelCalls).toBe(2);
    expect(JSON.parse(outcome.toolCalls[0]?.arguments ?? '')).toEqual({ day: '2026-02-28' });
  });

  it('duration_seconds: 900 for "1 hour 30 minutes" is valid by type and passes', () => {
    const { outcome } = runStep([reply(null, [call('set_timer', { duration_seconds: 900 })])]);
    expect(outcome.stopReason).toBe('tool_calls');
    expect(outcome.modelCalls).toBe(1);
  });

  it('the same invalid call every time: 2 retries, then validation_required about the first invalid parameter', () => {
    // Prepare
    const bad = () => call('calculate', { num1: 2, num2: 3, operation: 'power' });

    // Act
    const { outcome, state } = runStep([
      reply(null, [bad()]),
      reply(null, [bad()]),
      reply(null, [bad()]),
    ]);

    // Assess
    expect(outcome.modelCalls).toBe(3);
    expect(outcome.retries).toHaveLength(2);
    expect(outcome.stopReason).toBe('validation_required');
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.validationRequest).toMatchObject({
      parameterName: 'operation',
      options: ['add', 'subtract', 'multiply', 'divide'],
    });
    const last = state.messages.at(-1);
    expect(last?.role === 'assistant' && last.toolCalls[0]?.id).toBe(
      outcome.validationRequest?.toolCallId,
    );
    assertValidHistory(state.messages);
  });

  it('the retry budget is configurable (MAX_VALIDATION_RETRIES=0 asks the user at once)', () => {
    const { outcome } = runStep(
      [reply(null, [call('get_weather', { resolved_datetimes: ['tomorrow'] })])],
      { settings: { maxValidationRetries: 0 } },
    );
    expect(outcome.stopReason).toBe('validation_required');
    expect(outcome.modelCalls).toBe(1);
    expect(outcome.validationRequest?.parameterName).toBe('resolved_datetimes');
  });
});
