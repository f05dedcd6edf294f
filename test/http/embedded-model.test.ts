import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { useTinyModelFile } from '../support/random-gguf/tiny-model-file';
import { startWithFixture } from './http-fixtures';

// The tiny random-weight Qwen3 is written before the stack starts (its beforeAll runs first).
const modelPath = useTinyModelFile();
const harness = useLocalStack({
  languageModel: false,
  env: {
    LLM_MODEL: modelPath,
    // Gibberish runs to max tokens: keep each turn short.
    MODEL_MAX_TOKENS: '16',
    LLM_THREADS: '1',
    WARMUP_TIMEOUT_MS: '30000',
  },
});

describe('npm start with no OPENAI_BASE_URL runs the embedded model LLM_MODEL names', () => {
  it('the banner names it, with the file and its warm-up', () => {
    // Assess
    expect(harness.stack.embeddedModel).toMatchObject({
      name: 'tiny-qwen3.gguf',
      path: modelPath,
      cachedIn: null,
      threads: 1,
    });
    expect(harness.stack.languageModelConfigured).toBe(true);
    expect(harness.stack.embeddedModel?.warmUp.promptTokens).toBeGreaterThan(0);
  });

  it('conversation/start warms it and voice/command is answered by it, not 503', async () => {
    // Prepare
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'embedded');

    // Act
    const answered = await client.post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: 'set a timer for ten minutes',
    });

    // Assess: a random-weight model writes gibberish: an answer or a failed reply, never no model.
    expect(harness.output.join('')).toContain('"warmup_warmed":1');
    expect([200, 502], answered.text).toContain(answered.status);
    if (answered.status === 502) {
      expect(answered.json).toMatchObject({ error: { code: 'llm_failed' } });
    }
  });
});
