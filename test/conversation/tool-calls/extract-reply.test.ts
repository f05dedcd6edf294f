import { describe, expect, it } from 'vitest';
import {
  type ExtractedReply,
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
  finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
});
const parsed = (value: unknown, repaired: string[] = []): ParsedArguments => ({
  ok: true,
  value,
  repaired,
});
const weather = { city: 'LA' };

describe('extractReply', () => {
  // One row per line of llm-failure-modes.md, "Where the tool call is".
  describe('where the tool call is', () => {
    it.each<[string, ModelReply, ReadReply]>([
      [
        'native tool_calls with arguments as a JSON string',
        reply(null, [{ id: 'call_a', name: 'get_weather', arguments: '{"city":"LA"}' }]),
        {
          text: null,
          toolCalls: [
            { id: 'call_a', name: 'get_weather', source: 'native', arguments: parsed(weather) },
          ],
        },
      ],
      [
        'arguments already an object',
        reply(null, [{ id: 'call_a', name: 'get_weather', arguments: weather }]),
        {
          text: null,
          toolCalls: [
            { id: 'call_a', name: 'get_weather', source: 'native', arguments: parsed(weather) },
          ],
        },
      ],
      [
        'arguments "" mean {}',
        reply(null, [{ id: 'call_a', name: 'set_timer', arguments: '' }]),
        {
          text: null,
          toolCalls: [{ id: 'call_a', name: 'set_timer', source: 'native', arguments: parsed({}) }],
        },
      ],
      [
        'truncated arguments are closed',
        reply(null, [{ id: 'call_a', name: 'get_weather', arguments: '{"city": "LA"' }]),
        {
          text: null,
          toolCalls: [
            {
              id: 'call_a',
              name: 'get_weather',
              source: 'native',
              arguments: parsed(weather, ['closed_truncated']),
            },
          ],
        },
      ],
      [
        'a trailing comma and single quotes are repaired',
        reply(null, [{ id: 'call_a', name: 'get_weather', arguments: "{'city': 'LA',}" }]),
        {
          text: null,
          toolCalls: [
            {
              id: 'call_a',
              name: 'get_weather',
              source: 'native',
              arguments: parsed(weather, ['single_quotes', 'trailing_comma']),
            },
          ],
        },
      ],
      [
        'arguments beyond repair come back unparsed, for a retry',
        reply(null, [{ id: 'call_a', name: 'get_weather', arguments: '{"city": LA}' }]),
        {
          text: null,
          toolCalls: [
            {
              id: 'call_a',
              name: 'get_weather',
              source: 'native',
              arguments: {
                ok: false,
                raw: '{"city": LA}',
                reason: "unexpected 'LA' at position 9",
              },
            },
          ],
        },
      ],
      [
        '<tool_call> in the text',
        reply('<tool_call>\n{"name": "get_weather", "arguments": {"city": "LA"}}\n</tool_call>'),
        {
          text: null,
          toolCalls: [
            { id: 'call_1', name: 'get_weather', source: 'text', arguments: parsed(weather) },
          ],
        },
      ],
      [
        '<function=name> in the text',
        reply('Checking.<function=get_weather>{"city": "LA"}</function>'),
        {
          text: 'Checking.',
          toolCalls: [
            { id: 'call_1', name: 'get_weather', source: 'text', arguments: parsed(weather) },
          ],
        },
      ],
      [
        'a ```json fenced call',
        reply('Here:\n```json\n{"name": "get_weather", "arguments": {"city": "LA"}}\n```'),
        {
          text: 'Here:',
          toolCalls: [
            { id: 'call_1', name: 'get_weather', source: 'text', arguments: parsed(weather) },
          ],
        },
      ],
      [
        '<tool> with server_name and tool_name',
        reply(
          '<tool>{"server_name": "jarvis", "tool_name": "get_weather", "arguments": {"city": "LA"}}</tool>',
        ),
        {
          text: null,
          toolCalls: [
            { id: 'call_1', name: 'get_weather', source: 'text', arguments: parsed(weather) },
          ],
        },
      ],
      [
        'markup naming an undeclared tool is a call (an unknown-tool retry), never text',
        reply('<tool_call>{"name": "get_location", "arguments": {}}</tool_call>'),
        {
          text: null,
          toolCalls: [
            { id: 'call_1', name: 'get_location', source: 'text', arguments: parsed({}) },
          ],
        },
      ],
      [
        '<think> before the answer is stripped',
        reply('<think>The user greets me.</think>\n\nHello!'),
        { text: 'Hello!', toolCalls: [] },
      ],
      [
        'an empty or missing id is assigned',
        reply(null, [
          { id: '', name: 'get_weather', arguments: '{"city":"LA"}' },
          { id: null, name: 'set_timer', arguments: '{"duration_seconds":60}' },
        ]),
        {
          text: null,
          toolCalls: [
            { id: 'call_1', name: 'get_weather', source: 'native', arguments: parsed(weather) },
            {
              id: 'call_2',
              name: 'set_timer',
              source: 'native',
              arguments: parsed({ duration_seconds: 60 }),
            },
          ],
        },
      ],
      [
        'several calls, some parseable, some not: each keeps its own outcome',
        reply(null, [
          { id: 'a', name: 'get_weather', arguments: '{"city":"LA"}' },
          { id: 'b', name: 'set_timer', arguments: '{"duration_seconds": 6' },
        ]),
        {
          text: null,
          toolCalls: [
            { id: 'a', name: 'get_weather', source: 'native', arguments: parsed(weather) },
            {
              id: 'b',
              name: 'set_timer',
              source: 'native',
              arguments: {
                ok: false,
                raw: '{"duration_seconds": 6',
                reason: 'the text ends inside a number',
              },
            },
          ],
        },
      ],
    ])('%s', (_case, modelReply, expected) => {
      // Act
      const extracted = extractReply(modelReply, sequentialIds());

      // Assess
      expect(extracted).toEqual({ ...expected, unread: 0 });
    });
  });
});
