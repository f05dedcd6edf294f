import { describe, expect, it } from 'vitest';
import {
  type ExtractedReply,
  type ExtractedToolCall,
  extractReply,
  type ParsedArguments,
} from '../../../shared/conversation/tool-calls';
import type { ModelReply, RawToolCall } from '../../../shared/ports/language-model';
import { sequentialIds } from './sequential-ids';

/** What a reply under the call limit gives: every call read, none left unread. */
type ReadReply = Omit<ExtractedReply, 'unread'>;
const reply = (content: string | null, toolCalls: RawToolCall[] = []): ModelReply => ({
  content,
  toolCalls,
  finishReason: null,
});
const parsed = (value: unknown, repaired: string[] = []): ParsedArguments => ({
  ok: true,
  value,
  repaired,
});
const weather = { city: 'LA' };
const textCall = (name: string, args: ParsedArguments, id = 'call_1'): ExtractedToolCall => ({
  id,
  name,
  source: 'text',
  arguments: args,
});

describe('extractReply: tool calls written into the text', () => {
  describe('forms that are taken', () => {
    it.each<[string, string, ReadReply]>([
      [
        'a bare Llama-style call with "parameters"',
        '{"name": "get_weather", "parameters": {"city": "LA"}}',
        { text: null, toolCalls: [textCall('get_weather', parsed(weather))] },
      ],
      [
        'a bare call after <|python_tag|>',
        '<|python_tag|>{"name": "get_weather", "arguments": {"city": "LA"}}',
        { text: null, toolCalls: [textCall('get_weather', parsed(weather))] },
      ],
      [
        'a Mistral [TOOL_CALLS] list',
        '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "LA"}}, {"name": "set_timer", "arguments": {}}]',
        {
          text: null,
          toolCalls: [
            textCall('get_weather', parsed(weather)),
            textCall('set_timer', parsed({}), 'call_2'),
          ],
        },
      ],
      [
        'an OpenAI-shaped call with its id',
        '<tool_call>{"id": "c9", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"LA\\"}"}}</tool_call>',
        { text: null, toolCalls: [textCall('get_weather', parsed(weather), 'c9')] },
      ],
      [
        'arguments as a JSON string, repaired',
        `<tool_call>{"name": "get_weather", "arguments": "{'city': 'LA'}"}</tool_call>`,
        { text: null, toolCalls: [textCall('get_weather', parsed(weather, ['single_quotes']))] },
      ],
      [
        'a call cut off before its closing brace and tag',
        'On it.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "LA"}',
        {
          text: 'On it.',
          toolCalls: [textCall('get_weather', parsed(weather, ['closed_truncated']))],
        },
      ],
      [
        'a call with no arguments at all',
        '<tool_call>{"name": "set_timer"}</tool_call>',
        { text: null, toolCalls: [textCall('set_timer', parsed({}))] },
      ],
      [
        'two <tool_call> blocks, text between kept',
        '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call> and <tool_call>{"name": "set_timer", "arguments": {}}</tool_call>',
        {
          text: 'and',
          toolCalls: [
            textCall('get_weather', parsed({})),
            textCall('set_timer', parsed({}), 'call_2'),
          ],
        },
      ],
      [
        'a Qwen3-Coder <function=...> with <parameter=...> tags inside <tool_call>',
        '<tool_call>\n<function=set_timer>\n<parameter=duration_seconds>\n300\n</parameter>\n<parameter=label>\npasta\n</parameter>\n</function>\n</tool_call>',
        {
          text: null,
          toolCalls: [textCall('set_timer', parsed({ duration_seconds: '300', label: 'pasta' }))],
        },
      ],
      [
        'a fenced list where one name is unknown: both returned, for the validator',
        '```json\n[{"name": "get_weather", "arguments": {}}, {"name": "get_location", "arguments": {}}]\n```',
        {
          text: null,
          toolCalls: [
            textCall('get_weather', parsed({})),
            textCall('get_location', parsed({}), 'call_2'),
          ],
        },
      ],
      [
        'an unlabelled fence',
        '```\n{"name": "get_weather", "arguments": {"city": "LA"}}\n```',
        { text: null, toolCalls: [textCall('get_weather', parsed(weather))] },
      ],
      [
        'a bare call cut off before a <|python_tag|> call: both, in the order written',
        '{"tool_name": "set_timer", "arguments": ""<|python_tag|>{"name": "get_weather", "arguments": {"city": "LA"}}',
        {
          text: null,
          toolCalls: [
            textCall('set_timer', parsed({}, ['closed_truncated'])),
            textCall('get_weather', parsed(weather), 'call_2'),
          ],
        },
      ],
      [
        'an unclosed fence that reads as a call once the <tool_call> inside it is taken',
        'Here:\n```json\n{"name": "get_weather", "arguments": {"city": "LA"}<tool_call>{"name": "set_timer", "arguments": {}}',
        {
          text: 'Here:',
          toolCalls: [
            textCall('get_weather', parsed(weather, ['closed_truncated'])),
            textCall('set_timer', parsed({}), 'call_2'),
          ],
        },
      ],
      [
        'a <tool_call> whose tag only forms once a <|python_tag|> call inside it is taken',
        '<tool_<|python_tag|>x<|eot_id|>call>{"name": "get_weather", "arguments": {"city": "LA"}}</tool_call>',
        {
          text: null,
          toolCalls: [
            textCall('get_weather', parsed(weather)),
            textCall('python', parsed({ code: 'x' }), 'call_2'),
          ],
        },
      ],
      [
        'a call after reasoning',
        '<think>I need the weather tool.</think><tool_call>{"name": "get_weather", "arguments": {"city": "LA"}}</tool_call>',
        { text: null, toolCalls: [textCall('get_weather', parsed(weather))] },
      ],
    ])('%s', (_case, content, expected) => {
      // Act
      const extracted = extractReply(reply(content), sequentialIds());

      // Assess
      expect(extracted).toEqual({ ...expected, unread: 0 });
    });
  });

  describe('broken markup naming a declared tool comes back unparsed, for a retry', () => {
    it.each<[string, string, string]>([
      [
        'a <tool_call> body that is not JSON',
        '<tool_call>{"name": "get_weather", "arguments": {"city": LA}}</tool_call>',
        'get_weather',
      ],
      [
        'a <function=...> body that is not JSON',
        '<function=set_timer>{"duration_seconds": five}</function>',
        'set_timer',
      ],
      [
        'an unclosed <parameter=...>',
        '<function=set_timer><parameter=duration_seconds>30',
        'set_timer',
      ],
    ])('%s', (_case, content, name) => {
      // Act
      const extracted = extractReply(reply(content), sequentialIds());

      // Assess
      expect(extracted.text).toBeNull();
      expect(extracted.toolCalls).toHaveLength(1);
      expect(extracted.toolCalls[0]?.name).toBe(name);
      expect(extracted.toolCalls[0]?.arguments.ok).toBe(false);
    });
  });

  describe('text that stays text', () => {
    it.each([
      ['JSON inside prose', 'You could send {"name": "get_weather", "arguments": {}} yourself.'],
      ['a <tool_call> with an empty body', 'Nothing: <tool_call></tool_call>'],
      ['JSON that is not a call', '```json\n{"city": "LA"}\n```'],
      ['a python block naming a tool', '```python\n{"name": "get_weather", "arguments": {}}\n```'],
      ['a bare list that is not all calls', '[{"name": "get_weather"}, 3]'],
    ])('%s', (_case, content) => {
      // Act
      const extracted = extractReply(reply(content), sequentialIds());

      // Assess
      expect(extracted).toEqual({ text: content, toolCalls: [], unread: 0 });
    });
  });

  describe('markup naming an undeclared tool: a call for the validator to refuse, never spoken', () => {
    it.each([
      ['an undeclared <function=...>', '<function=get_location>{}</function>', true],
      [
        'an undeclared <tool_call>',
        '<tool_call>{"name": "get_location", "arguments": {}}</tool_call>',
        true,
      ],
      [
        'broken markup naming an undeclared tool',
        '<tool_call>{"name": "get_location", oops}</tool_call>',
        false,
      ],
    ])('%s', (_case, content, parses) => {
      const extracted = extractReply(reply(`Sure. ${content}`), sequentialIds());

      expect(extracted.text).toBe('Sure.');
      expect(extracted.toolCalls.map((call) => [call.name, call.arguments.ok])).toEqual([
        ['get_location', parses],
      ]);
    });
  });

  it('takes no call from inside a reasoning block', () => {
    // Act
    const extracted = extractReply(
      reply(
        '<think><tool_call>{"name": "get_weather", "arguments": {}}</tool_call></think>It is sunny.',
      ),
      sequentialIds(),
    );

    // Assess
    expect(extracted).toEqual({ text: 'It is sunny.', toolCalls: [], unread: 0 });
  });
});

describe('extractReply: native tool calls', () => {
  it('win over calls in the text, whose markup is still removed', () => {
    // Prepare
    const modelReply = reply(
      'Checking. <tool_call>{"name": "set_timer", "arguments": {}}</tool_call>',
      [{ id: 'n1', name: 'get_weather', arguments: '{"city": "LA"}' }],
    );

    // Act
    const extracted = extractReply(modelReply, sequentialIds());

    // Assess
    expect(extracted).toEqual({
      text: 'Checking.',
      toolCalls: [{ id: 'n1', name: 'get_weather', source: 'native', arguments: parsed(weather) }],
      unread: 0,
    });
  });

  it.each<[string, unknown, unknown]>([
    ['an undeclared name is still returned', '{}', {}],
    ['a JSON number is returned as parsed', '5', 5],
    ['a number is returned as is', 7, 7],
    ['null means no arguments', null, {}],
  ])('%s', (_case, args, value) => {
    // Act
    const extracted = extractReply(
      reply('', [{ id: 'n1', name: 'get_location', arguments: args }]),
      sequentialIds(),
    );

    // Assess
    expect(extracted).toEqual({
      text: null,
      toolCalls: [{ id: 'n1', name: 'get_location', source: 'native', arguments: parsed(value) }],
      unread: 0,
    });
  });
});
