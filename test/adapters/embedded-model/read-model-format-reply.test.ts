import { describe, expect, it } from 'vitest';
import {
  type GeneratedText,
  readModelFormatReply,
} from '../../../shared/adapters/embedded-model/read-model-format-reply';

const USAGE = { promptTokens: 900, cachedTokens: 850, completionTokens: 30 };

const read = (text: string, ended: GeneratedText['ended'] = 'stop') => {
  const reply = readModelFormatReply({ text, ended, usage: USAGE });
  if (!reply.ok) throw new Error(reply.issues.join('; '));
  return reply.value;
};

describe("readModelFormatReply: Qwen3's own tool-call format, read as every server's reply", () => {
  it('a call block is a tool call with its arguments as a JSON string', () => {
    // Act
    const reply = read(
      '<tool_call>\n{"name": "set_timer", "arguments": {"minutes": 10, "label": "tea"}}\n</tool_call>',
    );

    // Assess
    expect(reply).toEqual({
      content: null,
      toolCalls: [{ id: null, name: 'set_timer', arguments: '{"minutes":10,"label":"tea"}' }],
      finishReason: 'tool_calls',
      usage: { promptTokens: 900, cachedTokens: 850, completionTokens: 30 },
    });
  });

  it('two blocks are two calls in order; the text beside them is the content', () => {
    // Act
    const reply = read(
      'Sure.\n<tool_call>\n{"name": "a", "arguments": {}}\n</tool_call>\n<tool_call>\n{"name": "b", "arguments": {"x": 1}}\n</tool_call>',
    );

    // Assess
    expect(reply.content).toBe('Sure.');
    expect(reply.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['a', '{}'],
      ['b', '{"x":1}'],
    ]);
  });

  it('a block that is not JSON keeps its name and the arguments as written, for a retry', () => {
    // Act
    const reply = read(
      '<tool_call>\n{"name": "set_timer", "arguments": {"minutes": ten}}\n</tool_call>',
    );

    // Assess
    expect(reply.toolCalls).toEqual([
      { id: null, name: 'set_timer', arguments: '{"minutes": ten}' },
    ]);
    expect(reply.finishReason).toBe('tool_calls');
  });

  it('a block cut off at max tokens is text, and the reply says `length`', () => {
    // Act
    const reply = read('<tool_call>\n{"name": "set_timer", "argum', 'length');

    // Assess
    expect(reply.toolCalls).toEqual([]);
    expect(reply.content).toBe('<tool_call>\n{"name": "set_timer", "argum');
    expect(reply.finishReason).toBe('length');
  });

  it('a required call the model ended without its closing tag is still a call', () => {
    // Act
    const reply = read('<tool_call>\n{"name": "get_time", "arguments": {}}');

    // Assess
    expect(reply.toolCalls).toEqual([{ id: null, name: 'get_time', arguments: '{}' }]);
  });

  it('plain text is the content and a stop; a thinking block is no part of it', () => {
    // Act
    const reply = read('<think>\nthe user greets me\n</think>\n\nHello there!');

    // Assess
    expect(reply).toMatchObject({ content: 'Hello there!', toolCalls: [], finishReason: 'stop' });
  });

  it('a text over the reply limits is cut as a server reply is', () => {
    // Act
    const reply = read(`${'x'.repeat(200_000)}`);

    // Assess
    expect(reply.content?.length).toBeLessThan(200_000);
  });
});
