import { describe, expect, it } from 'vitest';
import { readChatReply } from '../../../shared/adapters/openai/read-chat-reply';
import { REPLY_LIMITS } from '../../../shared/conversation/tool-calls/reply-limits';
import type { ModelReply } from '../../../shared/ports/language-model';

const withMessage = (message: unknown, finishReason: unknown = 'stop') => ({
  choices: [{ index: 0, message, finish_reason: finishReason }],
});

describe('readChatReply', () => {
  it.each<[string, unknown, ModelReply]>([
    [
      'a plain answer',
      withMessage({ role: 'assistant', content: 'Hi.' }),
      { content: 'Hi.', toolCalls: [], finishReason: 'stop' },
    ],
    [
      'tool calls with null content',
      withMessage(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        'tool_calls',
      ),
      {
        content: null,
        toolCalls: [{ id: 'call_1', name: 'f', arguments: '{}' }],
        finishReason: 'tool_calls',
      },
    ],
    [
      'tool_calls: null',
      withMessage({ role: 'assistant', content: 'x', tool_calls: null }),
      { content: 'x', toolCalls: [], finishReason: 'stop' },
    ],
    [
      'a content that is not text',
      withMessage({ role: 'assistant', content: { text: 'x' } }),
      { content: null, toolCalls: [], finishReason: 'stop' },
    ],
    [
      'a missing finish reason',
      { choices: [{ index: 0, message: { role: 'assistant', content: 'x' } }] },
      { content: 'x', toolCalls: [], finishReason: null },
    ],
    [
      'a call without a name, kept for the engine to refuse',
      withMessage({
        role: 'assistant',
        tool_calls: [{ id: 'call_1', function: { arguments: '{}' } }],
      }),
      {
        content: null,
        toolCalls: [{ id: 'call_1', name: '', arguments: '{}' }],
        finishReason: 'stop',
      },
    ],
    [
      'a call without arguments',
      withMessage({ role: 'assistant', tool_calls: [{ function: { name: 'f' } }] }),
      {
        content: null,
        toolCalls: [{ id: null, name: 'f', arguments: undefined }],
        finishReason: 'stop',
      },
    ],
    [
      'the deprecated function_call',
      withMessage({
        role: 'assistant',
        content: null,
        function_call: { name: 'f', arguments: '{"a":1}' },
      }),
      {
        content: null,
        toolCalls: [{ id: null, name: 'f', arguments: '{"a":1}' }],
        finishReason: 'stop',
      },
    ],
  ])('reads %s', (_case, body, expected) => {
    // Act
    const read = readChatReply(body);

    // Assess
    expect(read).toEqual({ ok: true, value: expected });
  });

  it.each<[string, unknown, string]>([
    ['text', 'Bad gateway', 'not a JSON object'],
    ['null', null, 'not a JSON object'],
    ['a list', [], 'not a JSON object'],
    ['no choices', { id: 'x' }, 'no choices'],
    ['an empty choices list', { choices: [] }, 'no choices'],
    ['choices that are not a list', { choices: {} }, 'no choices'],
    ['a choice without a message', { choices: [{ index: 0 }] }, 'no message'],
    ['a choice that is not an object', { choices: ['hi'] }, 'no message'],
    ['tool_calls that are not a list', withMessage({ tool_calls: {} }), 'not a list'],
    [
      'a tool call without a function',
      withMessage({ tool_calls: [{ id: 'a' }] }),
      'tool_calls[0] has no function',
    ],
  ])('refuses %s', (_case, body, issue) => {
    // Act
    const read = readChatReply(body);

    // Assess
    expect(read.ok).toBe(false);
    expect(read.ok ? [] : read.issues.join()).toContain(issue);
  });
});

describe('readChatReply: what is never read is not carried on', () => {
  it('cuts a text and an arguments string over REPLY_LIMITS just past the limit', () => {
    // Arrange: a megabyte of each, and a surrogate pair across the text's cut.
    const text = `${'t'.repeat(REPLY_LIMITS.textBytes)}😀${'t'.repeat(1_000_000)}`;
    const args = 'a'.repeat(1_000_000);
    const body = withMessage({
      content: text,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: args } }],
    });

    // Act
    const reply = readChatReply(body);

    // Assess: both still over their limits (so the turn refuses them as before), no more.
    expect(reply.ok && reply.value.content).toBe(`${'t'.repeat(REPLY_LIMITS.textBytes)}😀`);
    expect(reply.ok && reply.value.toolCalls[0]?.arguments).toBe(
      'a'.repeat(REPLY_LIMITS.argumentsBytes + 1),
    );
  });

  it('keeps a text and arguments at the limit whole', () => {
    const text = 'é'.repeat(REPLY_LIMITS.textBytes);
    const args = JSON.stringify({ s: 'b'.repeat(REPLY_LIMITS.argumentsBytes - 10) });
    const body = withMessage({
      content: text,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: args } }],
    });

    const reply = readChatReply(body);

    expect(reply.ok && reply.value.content).toBe(text);
    expect(reply.ok && reply.value.toolCalls[0]?.arguments).toBe(args);
  });
});
