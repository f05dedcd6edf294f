import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractReply } from '../../../shared/conversation/tool-calls';
import type { ModelReply } from '../../../shared/ports/language-model';
import { sequentialIds } from './sequential-ids';

/** Pieces of every markup the extractor looks for, so random replies hit its edge cases. */
const markupPiece = fc.constantFrom(
  '<tool_call>',
  '</tool_call>',
  '<tool>',
  '</tool>',
  '<function=get_weather>',
  '</function>',
  '<parameter=city>',
  '</parameter>',
  '<think>',
  '</think>',
  '```json\n',
  '```',
  '<|python_tag|>',
  '[TOOL_CALLS]',
  '{"name": "get_weather", "arguments": ',
  '{"tool_name": "set_timer", "arguments": "',
  "{'city': 'LA',",
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  ',',
  'True',
  '\n',
  ' ',
  'LA',
);
const content = fc.oneof(
  fc.string(),
  fc.array(markupPiece, { maxLength: 30 }).map((pieces) => pieces.join('')),
);
const rawToolCall = fc.record({
  id: fc.option(fc.string({ maxLength: 4 })),
  name: fc.constantFrom('get_weather', 'set_timer', 'get_location', ''),
  arguments: fc.oneof(fc.anything(), fc.json(), content),
});
const modelReply: fc.Arbitrary<ModelReply> = fc.record({
  content: fc.option(content),
  toolCalls: fc.array(rawToolCall, { maxLength: 4 }),
  finishReason: fc.constant(null),
});

describe('extractReply properties', () => {
  it('never throws and gives every call a distinct, non-empty id', () => {
    fc.assert(
      fc.property(modelReply, (reply) => {
        const extracted = extractReply(reply, sequentialIds());
        const ids = extracted.toolCalls.map((call) => call.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.every((id) => id.trim() !== '')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('returns every native call, in order, and none from the text', () => {
    fc.assert(
      fc.property(modelReply, (reply) => {
        const extracted = extractReply(reply, sequentialIds());
        if (reply.toolCalls.length === 0) return;
        expect(extracted.toolCalls.map((call) => call.name)).toEqual(
          reply.toolCalls.map((call) => call.name),
        );
        expect(extracted.toolCalls.every((call) => call.source === 'native')).toBe(true);
      }),
    );
  });

  it('leaves no call in the text it returns: what is spoken holds no tool-call markup', () => {
    fc.assert(
      fc.property(content, (text) => {
        const extracted = extractReply(
          { content: text, toolCalls: [], finishReason: null },
          sequentialIds(),
        );
        const again = extractReply(
          { content: extracted.text, toolCalls: [], finishReason: null },
          sequentialIds(),
        );
        expect(again.toolCalls).toEqual([]);
      }),
    );
  });

  it('leaves text without markup as it is, trimmed', () => {
    fc.assert(
      fc.property(
        fc.string().filter((text) => !/[<`{[]/.test(text)),
        (text) => {
          const extracted = extractReply(
            { content: text, toolCalls: [], finishReason: null },
            sequentialIds(),
          );
          expect(extracted).toEqual({
            text: text.trim() === '' ? null : text.trim(),
            toolCalls: [],
            unread: 0,
          });
        },
      ),
    );
  });

  it('reads any JSON-string arguments unchanged and unrepaired', () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        const reply: ModelReply = {
          content: null,
          toolCalls: [{ id: 'a', name: 'get_weather', arguments: json }],
          finishReason: null,
        };
        const [call] = extractReply(reply, sequentialIds()).toolCalls;
        expect(call?.arguments).toEqual({ ok: true, value: JSON.parse(json), repaired: [] });
      }),
    );
  });
});
