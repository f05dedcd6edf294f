import { describe, expect, it } from 'vitest';
import { extractReply } from '../../../shared/conversation/tool-calls';
import { TURN_LIMITS } from '../../../shared/params';
import {
  assertValidHistory,
  call,
  compile,
  reply,
  sequentialIds,
} from '../../support/engine-fixtures';
import { runStep, WEATHER, weatherReply } from '../../support/step-fixture';

describe('step: a number JSON cannot carry exactly (llm-failure-modes.md)', () => {
  it.each([
    ['1e400', '{"duration_seconds": 1e400}'],
    ['an integer beyond 2^53', '{"duration_seconds": 9007199254740993}'],
  ])('%s: a retry naming the parameter, never null or rounded', (_case, args) => {
    // Act
    const { outcome, state } = runStep([
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

describe('step: a reply whose text or arguments run to megabytes (llm-failure-modes.md)', () => {
  it.each([
    ['row 4: 2 MB of <function=t>{', '<function=t>{'.repeat(160_000)],
    [
      'row 4: 500 KB of malformed markup naming a declared tool',
      `<tool_call>{"name": "get_weather", "arguments": {"city": "${'x'.repeat(500_000)}`,
    ],
    ['2 MB of garbage', 'y'.repeat(2_000_000)],
  ])('%s: retried unread, never spoken', (_case, content) => {
    // Act
    const { outcome, state } = runStep([reply(content), weatherReply()]);

    // Assess
    expect(outcome.retries.map((retry) => retry.reason)).toEqual(['reply_too_large']);
    expect(outcome.toolCalls.map((toolCall) => toolCall.name)).toEqual(['get_weather']);
    expect(outcome.assistantMessage).toBeNull();
    expect(JSON.stringify(state.messages).length).toBeLessThan(10_000);
    assertValidHistory(state.messages);
  });

  it('with no retry left, the user hears a short fallback, never the reply', () => {
    // Act
    const huge = reply('<function=get_weather>{'.repeat(10_000));
    const { outcome } = runStep([huge, huge, huge]);

    // Assess
    expect(outcome.stopReason).toBe('complete');
    expect(outcome.assistantMessage?.length).toBeLessThan(100);
    expect(outcome.assistantMessage).not.toContain('<function');
  });

  it('native arguments over the limit are an arguments_too_large retry, never parsed', () => {
    // Act
    const bloated = JSON.stringify({ city: 'x'.repeat(70_000), resolved_datetimes: [] });
    const { outcome, state } = runStep([
      reply(null, [{ id: 'call_big', name: 'get_weather', arguments: bloated }]),
      weatherReply(),
    ]);

    // Assess
    expect(outcome.retries[0]?.issues.map((issue) => issue.code)).toEqual(['arguments_too_large']);
    expect(JSON.stringify(state.messages)).not.toContain('x'.repeat(3_000));
  });

  it('under the limit, the markup scan reads the first 32 calls only, and draws 32 ids', () => {
    // Arrange: about 60 KB, 600 calls of a declared tool.
    const content = `<function=get_weather>${JSON.stringify(WEATHER)}`.repeat(600);
    const ids = sequentialIds();

    // Act
    const extracted = extractReply(reply(content), ids, new Set(), 32);

    // Assess: every call is found (its markup removed), 32 are read; an id is drawn for those
    // alone (in the isolation worker each draw is a round trip to the main thread).
    expect(extracted.toolCalls).toHaveLength(32);
    expect(extracted.toolCalls.every((found) => found.arguments.ok)).toBe(true);
    expect(extracted.unread).toBe(568);
    expect(ids.issued).toHaveLength(32);
    expect(extracted.text).toBeNull();
  });

  it('native calls past the first 32 are counted, not read', () => {
    // Arrange
    const native = Array.from({ length: 40 }, (_, index) => ({
      id: `n${index}`,
      name: 'get_weather',
      arguments: JSON.stringify(WEATHER),
    }));

    // Act
    const extracted = extractReply(reply(null, native), sequentialIds(), new Set(), 32);

    // Assess
    expect(extracted.toolCalls.map((found) => found.id)).toEqual(
      native.slice(0, 32).map((n) => n.id),
    );
    expect(extracted.unread).toBe(8);
  });
});

describe("step: Llama 3.x's <|python_tag|> (llm-failure-modes.md)", () => {
  it.each([
    [
      'JSON with parameters',
      `<|python_tag|>{"name": "get_weather", "parameters": ${JSON.stringify(WEATHER)}}`,
    ],
    [
      'JSON after words, with <|eom_id|>',
      `Let me check. <|python_tag|>{"name": "get_weather", "parameters": ${JSON.stringify(WEATHER)}}<|eom_id|>`,
    ],
    [
      'name.call(key="value")',
      '<|python_tag|>get_weather.call(city="Los Angeles", resolved_datetimes=["2026-01-17T05:00:00Z"])',
    ],
  ])('%s: read as the call, in one model call', (_case, content) => {
    // Act
    const { outcome, state } = runStep([reply(content)]);

    // Assess
    expect(outcome.modelCalls).toBe(1);
    expect(outcome.toolCalls.map((found) => JSON.parse(found.arguments))).toEqual([WEATHER]);
    expect(outcome.assistantMessage ?? '').not.toContain('python_tag');
    assertValidHistory(state.messages);
  });

  it.each([
    ['a built-in tool not declared', '<|python_tag|>brave_search.call(query="weather in LA")'],
    ['code, naming nothing', '<|python_tag|>print(2 + 2)'],
  ])('%s: an unknown-tool retry, never spoken', (_case, content) => {
    // Act
    const { outcome } = runStep([reply(`Sure. ${content}`), reply('It is sunny.')]);

    // Assess
    expect(outcome.retries[0]?.issues.map((issue) => issue.code)).toEqual(['unknown_tool']);
    expect(outcome.assistantMessage).toBe('It is sunny.');
  });
});

describe('step: what one turn validates is bounded by bytes (TURN_LIMITS, issue 18 item 1)', () => {
  it('32 valid calls of 5 KiB: 8 KiB of arguments are checked, the rest refused unread', () => {
    // Arrange
    const notes = compile({
      available_commands: [
        { command_name: 'note', parameters: [{ name: 'text', type: 'string', required: true }] },
      ],
    });
    const calls = Array.from({ length: 32 }, (_, index) =>
      call('note', { text: `${index}`.padEnd(5_000, 'n') }, `call_${index}`),
    );

    // Act
    const { outcome, state } = runStep(
      [reply(null, calls), reply(null, calls.slice(0, 1)), reply(null, calls.slice(0, 1))],
      { commandSet: notes },
    );

    // Assess: one call (5 KB) was read, however many came; nothing more was checked later.
    expect(state.argumentBytes).toBeLessThanOrEqual(TURN_LIMITS.argumentBytes);
    expect(outcome.toolCalls.map((handed) => handed.id)).toEqual(['call_0']);
    const unread = state.messages.filter(
      (message) => message.role === 'tool' && message.content.includes('not read'),
    );
    expect(unread.length).toBeGreaterThanOrEqual(31);
  });
});
