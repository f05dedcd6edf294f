import { describe, expect, it } from 'vitest';
import type { RawToolCall } from '../../../shared/ports/language-model';
import { assertValidHistory, call, reply } from '../../support/engine-fixtures';
import { runStep, WEATHER } from '../../support/step-fixture';

const weatherJson = JSON.stringify(WEATHER);

/** llm-failure-modes.md, "Where the tool call is": each reply yields the get_weather call in one model call. */
const ROWS: readonly { row: string; content: string | null; toolCalls: RawToolCall[] }[] = [
  {
    row: 'native tool_calls with a JSON string',
    content: null,
    toolCalls: [call('get_weather', WEATHER)],
  },
  {
    row: 'arguments already an object',
    content: null,
    toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: WEATHER }],
  },
  {
    row: 'a truncated JSON string',
    content: null,
    toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: weatherJson.slice(0, -1) }],
  },
  {
    row: 'a trailing comma',
    content: null,
    toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: `${weatherJson.slice(0, -1)},}` }],
  },
  {
    row: 'single quotes',
    content: null,
    toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: weatherJson.replaceAll('"', "'") }],
  },
  {
    row: '<tool_call> in the text',
    content: `<tool_call>{"name": "get_weather", "arguments": ${weatherJson}}</tool_call>`,
    toolCalls: [],
  },
  {
    row: '<function=name> in the text',
    content: `<function=get_weather>${weatherJson}</function>`,
    toolCalls: [],
  },
  {
    row: 'a fenced json block',
    content: `Sure.\n\`\`\`json\n{"name": "get_weather", "arguments": ${weatherJson}}\n\`\`\``,
    toolCalls: [],
  },
  {
    row: '<tool> with server_name and tool_name',
    content: `<tool>{"server_name": "jcc", "tool_name": "get_weather", "arguments": ${weatherJson}}</tool>`,
    toolCalls: [],
  },
  {
    row: 'a tool call with an empty id',
    content: null,
    toolCalls: [{ id: '', name: 'get_weather', arguments: weatherJson }],
  },
  {
    row: 'a tool call with no id',
    content: null,
    toolCalls: [{ id: null, name: 'get_weather', arguments: weatherJson }],
  },
];

describe('step: where the tool call is (llm-failure-modes.md)', () => {
  it.each(ROWS)('$row', ({ content, toolCalls }) => {
    const { outcome, state } = runStep([reply(content, toolCalls)]);
    expect(outcome.stopReason).toBe('tool_calls');
    expect(outcome.modelCalls).toBe(1);
    expect(outcome.toolCalls).toHaveLength(1);
    expect(outcome.toolCalls[0]?.id).toMatch(/^\S+$/);
    expect(outcome.toolCalls[0]?.name).toBe('get_weather');
    expect(JSON.parse(outcome.toolCalls[0]?.arguments ?? '')).toEqual(WEATHER);
    assertValidHistory(state.messages);
  });

  it('"" as arguments means {}', () => {
    const { outcome } = runStep([
      reply(null, [{ id: 'call_a', name: 'check_timers', arguments: '' }]),
    ]);
    expect(outcome.toolCalls[0]?.arguments).toBe('{}');
  });

  it('text JSON naming an undeclared tool is an unknown-tool retry; its markup is never spoken', () => {
    const text = 'Launching. <tool_call>{"name": "launch_rocket", "arguments": {}}</tool_call>';
    const { outcome, state } = runStep([reply(text), reply('I cannot launch rockets.')]);
    expect(outcome).toMatchObject({
      stopReason: 'complete',
      assistantMessage: 'I cannot launch rockets.',
      modelCalls: 2,
      toolCalls: [],
    });
    expect(outcome.retries.map((retry) => retry.issues[0]?.code)).toEqual(['unknown_tool']);
    assertValidHistory(state.messages);
  });

  it('<think> blocks are stripped from assistant_message', () => {
    const { outcome } = runStep([reply('<think>the user wants a fact</think>Paris.')]);
    expect(outcome).toMatchObject({ stopReason: 'complete', assistantMessage: 'Paris.' });
  });

  it('several calls, some invalid: the valid one is kept, the invalid one retried, both handed over', () => {
    // Prepare
    const timer = call('set_timer', { duration_seconds: 300 }, 'call_timer');
    const badWeather = call('get_weather', { resolved_datetimes: ['tomorrow'] }, 'call_weather');
    const goodWeather = call('get_weather', WEATHER, 'call_weather_2');

    // Act
    const { outcome, state } = runStep([
      reply(null, [timer, badWeather]),
      reply(null, [goodWeather]),
    ]);

    // Assess
    expect(outcome.modelCalls).toBe(2);
    expect(outcome.toolCalls.map((toolCall) => toolCall.id)).toEqual([
      'call_timer',
      'call_weather_2',
    ]);
    assertValidHistory(state.messages);
  });

  it('a call sent again after a retry is handed over once', () => {
    const timer = call('set_timer', { duration_seconds: 300 }, 'call_timer');
    const bad = call('get_weather', { resolved_datetimes: ['tomorrow'] }, 'call_weather');
    const { outcome } = runStep([
      reply(null, [timer, bad]),
      reply(null, [
        call('set_timer', { duration_seconds: 300 }, 'call_timer_again'),
        call('get_weather', WEATHER, 'w2'),
      ]),
    ]);
    expect(outcome.toolCalls.map((toolCall) => toolCall.name)).toEqual([
      'set_timer',
      'get_weather',
    ]);
  });

  it('arguments that cannot be repaired are a retry', () => {
    const { outcome } = runStep([
      reply(null, [{ id: 'call_a', name: 'get_weather', arguments: 'city: LA, when: tomorrow' }]),
      reply(null, [call('get_weather', WEATHER)]),
    ]);
    expect(outcome.modelCalls).toBe(2);
    expect(outcome.retries[0]?.issues[0]?.code).toBe('arguments_not_object');
  });
});
