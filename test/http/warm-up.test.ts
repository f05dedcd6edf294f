import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { conversationIdFor, fixtureStartBody, messagesOf, textReply } from './http-fixtures';
import { expectStarted } from './response-contract';

// Long enough that a loaded machine still warms in time (the "warmed" case); the hang case waits
// it out once, since the warm-up's deadline is real time in the handler.
const harness = useLocalStack({ env: { WARMUP_TIMEOUT_MS: '8000' } });

/**
 * The fixture's registration, its first description marked with `commandSet`: another command set
 * (another hash), so each test starts with one this container never warmed.
 */
function registration(commandSet: string, conversationId: string): Record<string, unknown> {
  const body = fixtureStartBody(conversationId);
  const [first, ...rest] = body.available_commands as Record<string, unknown>[];
  return {
    ...body,
    available_commands: [
      { ...first, description: `${first?.description} (${commandSet})` },
      ...rest,
    ],
  };
}

const start = async (commandSet: string, extra: Record<string, unknown> = {}) => {
  const conversationId = conversationIdFor('warm-up');
  const response = await harness
    .client()
    .post(ROUTES.start, { ...registration(commandSet, conversationId), ...extra });
  expectStarted(response, conversationId);
  return { conversationId, body: response.json as Record<string, unknown> };
};

describe('the model warm-up at conversation/start', () => {
  it('sends one request of exactly the prompt prefix and tools the turns send, for one token', async () => {
    harness.llm.enqueue(textReply('H'), textReply('Hello there.'));

    const { conversationId, body } = await start('prefix', { skip_warmup_inference: false });
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

  it.each([
    ['asks for one', false],
    ['asks to skip it (the real node’s default)', true],
  ])(
    'a command set warmed a moment ago costs nothing, whether the node %s',
    async (_case, skip) => {
      // Prepare: a first start warms this command set
      harness.llm.enqueue(textReply('H'));
      const first = await start(`recent-${skip}`);
      const requestsAfterFirst = harness.llm.requests.length;

      // Act: the default node's next utterance starts again
      const { body } = await start(`recent-${skip}`, { skip_warmup_inference: skip });

      // Assess
      expect(first.body.warmup).toBe('warmed');
      expect(body.warmup).toBe('recently_warmed');
      expect(harness.llm.requests).toHaveLength(requestsAfterFirst);
    },
  );

  it('warms a command set never warmed even when the node asks to skip', async () => {
    harness.llm.enqueue(textReply('H'));

    const { body } = await start('never-seen', { skip_warmup_inference: true });

    expect(body.warmup).toBe('warmed');
    expect(harness.llm.requests).toHaveLength(1);
    expect(harness.llm.requests[0]?.body).toMatchObject({ max_tokens: 1 });
  });

  it.each([
    ['a model that does not answer in time', { hangMs: 600_000 }, 'timed_out'],
    ['a model that refuses the request', { status: 400 }, 'failed'],
  ])('never fails the start, nor counts as warm: %s', async (_case, step, outcome) => {
    harness.llm.enqueue(step, textReply('H'));

    const { body } = await start(`unfinished-${outcome}`);
    const again = await start(`unfinished-${outcome}`);

    // Started, with the outcome reported: the hang (never answered) was not waited out. An
    // unfinished warm-up is not remembered: the next start warms again.
    expect(body.warmup).toBe(outcome);
    expect(again.body.warmup).toBe('warmed');
  });
});
