import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { LatencyProfile } from '../../support/scripted-llm/latency-profile';
import { LocalModelSimulator } from '../../support/scripted-llm/local-model-simulator';
import type { RecordedRequest, ReplyStep } from '../../support/scripted-llm/script-types';
import {
  type StartedScriptedLlmServer,
  startScriptedLlmServer,
} from '../../support/scripted-llm-server';

/** Round speeds, so the arithmetic reads plainly (tokens are Qwen3's own). */
const slow: LatencyProfile = {
  name: 'slow',
  // 100 tokens/s, whatever the count.
  promptPoints: [{ tokens: 1_000, ms: 10_000 }],
  generationTokensPerSecond: 10,
};

const system = { role: 'system', content: 'You are Jarvis, a voice assistant. Be brief.' };
const tool = {
  type: 'function',
  function: {
    name: 'set_timer',
    description: 'Start a countdown timer',
    parameters: { type: 'object', properties: { duration_seconds: { type: 'integer' } } },
  },
};
const asks = (content: string) => ({ role: 'user', content });
const requestOf = (messages: readonly unknown[], fields: Record<string, unknown> = {}) => {
  const body = { model: 'm', messages, tools: [tool], ...fields };
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: {},
    body,
    bodyLength: JSON.stringify(body).length,
  } as RecordedRequest;
};
const answer = (content: string): ReplyStep => ({ reply: { content } });

describe('LocalModelSimulator (fake clock)', () => {
  let realMs = 0;
  const simulator = (timeScale = 1) =>
    new LocalModelSimulator({ profile: slow, timeScale, realNow: () => realMs });
  afterEach(() => {
    realMs = 0;
  });

  it('costs a cold request its whole prompt and reply, and answers after that time', () => {
    // Prepare
    const model = simulator();

    // Act
    const timed = model.admit(requestOf([system, asks('Set a timer')]), answer('Done.'));

    // Assess
    const { served } = timed;
    expect(served.cachedTokens).toBe(0);
    expect(served.promptTokens).toBeGreaterThan(100);
    expect(served.generatedTokens).toBe(3); // "Done", ".", <|im_end|>
    expect(served.workMs).toBeCloseTo(served.promptTokens * 10 + 3 * 100, 6);
    expect(timed.realDelayMs).toBeCloseTo(served.workMs, 6);
    expect(timed.usage).toEqual({
      prompt_tokens: served.promptTokens,
      completion_tokens: 3,
      total_tokens: served.promptTokens + 3,
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it('charges the next turn only for what its prompt adds to the cached one and its reply', () => {
    // Prepare
    const model = simulator();
    const first = model.admit(requestOf([system, asks('Set a timer')]), answer('For how long?'));
    realMs = 100_000;

    // Act
    const history = [system, asks('Set a timer'), { role: 'assistant', content: 'For how long?' }];
    const next = model.admit(requestOf([...history, asks('Five minutes')]), answer('Done.'));

    // Assess: the first prompt and its generated reply are all cached
    const firstEvaluated = first.served.promptTokens + first.served.generatedTokens;
    expect(next.served.cachedTokens).toBeGreaterThanOrEqual(firstEvaluated - 1);
    expect(next.served.uncachedTokens).toBeLessThan(15);
    expect(next.served.waitMs).toBe(0);
  });

  it('queues a request behind the one in progress, in modeled time', () => {
    // Prepare
    const model = simulator(20);
    const first = model.admit(requestOf([system, asks('Set a timer')]), answer('Done.'));
    realMs = 10; // 200 modeled ms later

    // Act
    const second = model.admit(requestOf([system, asks('Cancel it')]), answer('Done.'));

    // Assess
    expect(second.served.arrivalMs).toBe(200);
    expect(second.served.startMs).toBe(first.served.finishMs);
    expect(second.served.waitMs).toBeCloseTo(first.served.finishMs - 200, 6);
    expect(second.realDelayMs).toBeCloseTo((second.served.finishMs - 200) / 20, 6);
  });

  it('keeps the slot busy with a request whose client left', () => {
    // Prepare
    const model = simulator();
    const abandoned = model.admit(requestOf([system, asks('Set a timer')]), answer('Done.'));
    realMs = 5;
    model.settle(abandoned.served, false);

    // Act
    const next = model.admit(requestOf([system, asks('Set a timer')]), answer('Done.'));

    // Assess: it waits for the abandoned work, then finds its prompt cached
    expect(abandoned.served).toMatchObject({ abandoned: true, realEndMs: 5 });
    expect(next.served.startMs).toBe(abandoned.served.finishMs);
    expect(next.served.uncachedTokens).toBe(1);
  });

  it('forgets the cache on clearCache and on another profile, never the slot', () => {
    // Prepare
    const model = simulator();
    const first = model.admit(requestOf([system, asks('Set a timer')]), answer('Done.'));

    // Act
    model.clearCache();
    const again = model.admit(requestOf([system, asks('Set a timer')]), answer('Done.'));

    // Assess
    expect(again.served.cachedTokens).toBe(0);
    expect(again.served.startMs).toBe(first.served.finishMs);
  });
});

describe('scripted LLM server with a latency model (through the openai SDK)', () => {
  let server: StartedScriptedLlmServer | null = null;
  const start = async (timeScale: number) => {
    server = await startScriptedLlmServer({ latency: { profile: slow, timeScale } });
    return {
      running: server,
      client: new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 }),
    };
  };
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('is off by default', async () => {
    server = await startScriptedLlmServer();
    expect(server.latency).toBeNull();
  });

  it('answers max_tokens 1 (a warm-up) with one token, cut off at the limit', async () => {
    // Prepare
    const { running, client } = await start(1_000);
    running.enqueue({ reply: { content: 'OK, the timer is set for five minutes.' } });

    // Act
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Set a timer' }],
      max_tokens: 1,
    });

    // Assess
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.choices[0]?.message.content).toBe('OK');
    expect(completion.usage?.completion_tokens).toBe(1);
    expect(running.latency?.served[0]?.generatedTokens).toBe(1);
  });

  it('reports cached prompt tokens once a prefix was evaluated', async () => {
    // Prepare
    const { running, client } = await start(1_000);
    running.enqueue(answer('One moment.'), answer('Done.'));
    const messages = [{ role: 'system' as const, content: system.content }];

    // Act
    const first = await client.chat.completions.create({ model: 'm', messages, max_tokens: 1 });
    const second = await client.chat.completions.create({
      model: 'm',
      messages: [...messages, { role: 'user', content: 'Set a timer for five minutes' }],
    });

    // Assess
    const firstPrompt = first.usage?.prompt_tokens ?? 0;
    expect(second.usage?.prompt_tokens_details?.cached_tokens).toBeGreaterThan(firstPrompt - 3);
    expect(second.usage?.prompt_tokens).toBeGreaterThan(firstPrompt);
  });

  it('works on a request whose client timed out, and the next one waits for it', async () => {
    // Prepare: ~20 modeled seconds of prompt, 200 real ms at this scale
    const { running, client } = await start(100);
    running.enqueue(answer('Done.'), answer('Done.'));
    const long = [{ role: 'user' as const, content: 'timer '.repeat(2_000) }];

    // Act
    const abandoned = client.chat.completions.create(
      { model: 'm', messages: long },
      { timeout: 20 },
    );
    await expect(abandoned).rejects.toThrow(/timed out/i);
    const next = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Cancel the timer' }],
    });

    // Assess
    const [first, second] = running.latency?.served ?? [];
    expect(next.choices[0]?.message.content).toBe('Done.');
    expect(first?.abandoned).toBe(true);
    expect(second?.abandoned).toBe(false);
    expect(second?.startMs).toBe(first?.finishMs);
    expect(second?.waitMs).toBeGreaterThan(10_000);
  });
});
