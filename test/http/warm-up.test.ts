import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { conversationIdFor, fixtureStartBody, messagesOf, textReply } from './http-fixtures';
import { expectStarted } from './response-contract';

// Long enough that a loaded machine still warms in time (the "warmed" case); the hang case waits
// it out once, since the warm-up's deadline is real time in the handler.
const harness = useLocalStack({ env: { WARMUP_TIMEOUT_MS: '8000' } });

const start = async (extra: Record<string, unknown> = {}) => {
  const conversationId = conversationIdFor('warm-up');
  const response = await harness
    .client()
    .post(ROUTES.start, { ...fixtureStartBody(conversationId), ...extra });
  expectStarted(response, conversationId);
  return { conversationId, body: response.json as Record<string, unknown> };
};

describe('the model warm-up at conversation/start', () => {
  it('sends one request of exactly the prompt prefix and tools the turns send, for one token', async () => {
    harness.llm.enqueue(textReply('H'), textReply('Hello there.'));

    const { conversationId, body } = await start({ skip_warmup_inference: false });
    await harness
      .client()
      .post(ROUTES.command, { conversation_id: conversationId, voice_command: 'hi' });

    const [warmUp, turn] = harness.llm.requests;
    expect(body.warmup).toBe('warmed');
    expect(warmUp?.body).toMatchObject({ max_tokens: 1 });
    expect(turn?.body?.max_tokens).toBe(1024);
    expect(messagesOf(warmUp)[0]).toEqual(messagesOf(turn)[0]);
    expect(messagesOf(warmUp)[0]?.role).toBe('system');
    expect(warmUp?.body?.tools).toEqual(turn?.body?.tools);
    // Not an OpenAI endpoint: no provider-specific field that a strict server could refuse.
    expect(warmUp?.body).not.toHaveProperty('prompt_cache_key');
  });

  it('is left out when the node sends skip_warmup_inference: true', async () => {
    const { body } = await start({ skip_warmup_inference: true });

    expect(body.warmup).toBe('skipped');
    expect(harness.llm.requests).toHaveLength(0);
  });

  it.each([
    ['a model that does not answer in time', { hangMs: 600_000 }, 'timed_out'],
    ['a model that refuses the request', { status: 400 }, 'failed'],
  ])('never fails the start: %s', async (_case, step, outcome) => {
    harness.llm.enqueue(step);

    const { body } = await start();

    // Started, with the outcome reported: the hang (never answered) was not waited out.
    expect(body.warmup).toBe(outcome);
  });
});
