import { describe, expect, it } from 'vitest';
import { buildChatRequest, chatRequestText } from '../../../shared/adapters/openai/chat-request';
import type { ChatMessage, ToolDefinition } from '../../../shared/chat/chat-message';
import type { ModelRequest } from '../../../shared/ports/language-model';

const request: ModelRequest = {
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  toolChoice: 'auto',
  cacheKey: 'set-hash',
};

describe('buildChatRequest', () => {
  it.each([
    ['the setting', {}, 512],
    ['the request (a warm-up asks for one token)', { maxTokens: 1 }, 1],
  ])('takes max_tokens from %s', (_case, extra, expected) => {
    const body = buildChatRequest({ ...request, ...extra }, { model: 'm', maxTokens: 512 });
    expect(body.max_tokens).toBe(expected);
  });

  it('sends prompt_cache_key only to a provider that takes it', () => {
    const openAi = buildChatRequest(request, { model: 'm', sendPromptCacheKey: true });
    const other = buildChatRequest(request, { model: 'm', sendPromptCacheKey: false });

    expect(openAi.prompt_cache_key).toBe('set-hash');
    expect(other).not.toHaveProperty('prompt_cache_key');
  });
});

describe('chatRequestText', () => {
  const tools: readonly ToolDefinition[] = [
    {
      type: 'function',
      function: {
        name: 'set_timer',
        description: 'Sets a "timer" ⏱',
        parameters: { type: 'object', properties: { seconds: { type: 'integer' } } },
        strict: true,
      },
    },
  ];
  const history: readonly ChatMessage[] = [
    { role: 'system', content: 'You are Jarvis.' },
    { role: 'user', content: 'set a timer\n"now" ✓' },
    {
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'c1', name: 'set_timer', arguments: '{}' }],
    },
    { role: 'tool', toolCallId: 'c1', content: '{"ok":true}' },
    { role: 'assistant', content: null, toolCalls: [] },
  ];

  it.each([
    ['no tools, nothing optional', { ...request, messages: history }, { model: 'm' }, {}, true],
    [
      'tools, every optional field and thinking fields',
      { ...request, messages: history, tools, toolChoice: 'required' as const, maxTokens: 9 },
      { model: 'm', temperature: 0.2, sendPromptCacheKey: true },
      { chat_template_kwargs: { enable_thinking: false } },
      true,
    ],
    ['tools without tool_choice', { ...request, tools }, { model: 'm' }, {}, false],
  ])(
    'is the JSON of buildChatRequest: %s, asked twice',
    (_case, asked, settings, thinking, choice) => {
      const expected = buildChatRequest(asked, settings, thinking, choice);
      for (const _ of [1, 2]) {
        const text = chatRequestText(asked, settings, thinking, choice);
        expect(JSON.parse(text)).toEqual(expected);
      }
    },
  );

  it('encodes a message again when it is another object', () => {
    const first = chatRequestText(
      { ...request, messages: [history[1] as ChatMessage] },
      { model: 'm' },
    );
    const other: ChatMessage = { role: 'user', content: 'something else' };
    const second = chatRequestText({ ...request, messages: [other] }, { model: 'm' });
    expect(JSON.parse(first).messages).toEqual([{ role: 'user', content: 'set a timer\n"now" ✓' }]);
    expect(JSON.parse(second).messages).toEqual([{ role: 'user', content: 'something else' }]);
  });
});
