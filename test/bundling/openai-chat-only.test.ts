import { describe, expect, it } from 'vitest';
import { isStubbedOpenAiModule } from '../../infra/bundling/openai-chat-only';

describe('isStubbedOpenAiModule', () => {
  it.each([
    ['resources/admin/admin.mjs', 'a resource we never call'],
    ['resources/responses/responses.mjs', 'the Responses API'],
    ['resources/beta/beta.mjs', 'the beta resources (assistants, realtime, agents)'],
    ['lib/ChatCompletionStream.mjs', 'chat streaming, which create() without stream never runs'],
    ['lib/parser.mjs', 'the helpers of chat.completions.parse'],
    ['resources/added-by-an-upgrade.mjs', 'a resource an SDK upgrade adds (allow-list)'],
    ['resources/audio/translations.mjs', 'audio endpoints we never call'],
    ['resources/audio/voices.mjs', 'custom voices'],
  ])('stubs %s: %s', (modulePath) => {
    expect(isStubbedOpenAiModule(modulePath)).toBe(true);
  });

  it.each([
    ['resources/chat/completions/completions.mjs', 'chat.completions, what we call'],
    ['resources/chat/chat.mjs', 'the chat resource'],
    ['resources/index.mjs', 'the index that re-exports every resource'],
    ['resources/shared.mjs', 'the shared types module'],
    ['resources/audio/audio.mjs', 'the audio resource'],
    ['resources/audio/speech.mjs', 'audio.speech, speech out'],
    ['resources/audio/transcriptions.mjs', 'audio.transcriptions, speech in'],
    ['client.mjs', 'the client itself'],
    ['core/streaming.mjs', 'the request machinery'],
    ['internal/auth/x509-api-origin.mjs', 'internals the client constructor calls'],
    ['resources/admin/admin.js', 'CommonJS files, whose exports esbuild cannot list'],
    ['resources-like/admin.mjs', 'a folder that only starts like a surface folder'],
  ])('keeps %s: %s', (modulePath) => {
    expect(isStubbedOpenAiModule(modulePath)).toBe(false);
  });
});
