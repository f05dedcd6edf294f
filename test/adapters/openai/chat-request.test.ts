import { describe, expect, it } from 'vitest';
import { buildChatRequest } from '../../../shared/adapters/openai/chat-request';
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
