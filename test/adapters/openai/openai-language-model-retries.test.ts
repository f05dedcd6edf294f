import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ScriptedLlmServer,
  type ScriptStep,
  startScriptedLlmServer,
} from '../../support/scripted-llm-server';
import { failureOf, modelFor, requestOf, userAsks } from './model-under-test';

let server: ScriptedLlmServer;
const request = requestOf([userAsks('Weather in LA?')]);
const answer: ScriptStep = { reply: { content: 'Sunny.' } };
const forever = (step: ScriptStep): ScriptStep[] => Array.from({ length: 100 }, () => step);

beforeAll(async () => {
  server = await startScriptedLlmServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});

describe('OpenAiLanguageModel retries', () => {
  it.each([
    ['Retry-After in seconds', { 'retry-after': '0' }],
    ['retry-after-ms', { 'retry-after-ms': '20' }],
  ])('retries a 429 with %s, then returns the reply', async (_case, headers) => {
    // Prepare
    server.enqueue({ status: 429, headers }, answer);

    // Act
    const reply = await modelFor(server.baseURL).complete(request, { timeoutMs: 5_000 });

    // Assess
    expect(reply.content).toBe('Sunny.');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a mix of 429, 503 and a dropped connection until a reply comes', async () => {
    // Prepare
    server.enqueue({ status: 429 }, { status: 503 }, { hangMs: 0 }, answer);

    // Act
    const reply = await modelFor(server.baseURL).complete(request, { timeoutMs: 5_000 });

    // Assess
    expect(reply.content).toBe('Sunny.');
    expect(server.requests).toHaveLength(4);
  });

  it('gives up on a server that keeps answering 429 with rate_limited, counting every attempt', async () => {
    // Prepare
    server.enqueue(...forever({ status: 429, headers: { 'retry-after-ms': '30' } }));

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 300 }));

    // Assess
    expect(error.failure).toBe('rate_limited');
    expect(error.attempts).toBeGreaterThan(1);
    expect(error.attempts).toBe(server.requests.length);
  });

  it('does not wait for a Retry-After that ends past the deadline', async () => {
    // Prepare
    server.enqueue({ status: 429, headers: { 'retry-after': '30' } }, answer);

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 2_000 }));

    // Assess
    expect(error.failure).toBe('rate_limited');
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it.each([500, 502, 503])('retries %i, then gives up with unavailable', async (status) => {
    // Prepare
    server.enqueue(...forever({ status }));

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 300 }));

    // Assess
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBeGreaterThan(1);
    expect(error.attempts).toBe(server.requests.length);
    expect(error.message).toContain(String(status));
  });

  it('stops at the configured number of attempts even with time left', async () => {
    // Prepare
    server.enqueue(...forever({ status: 503 }));
    const model = modelFor(server.baseURL, { backoff: { baseDelayMs: 5, maxAttempts: 3 } });

    // Act
    const error = await failureOf(model.complete(request, { timeoutMs: 10_000 }));

    // Assess
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 5xx the server marks with x-should-retry: false', async () => {
    // Prepare
    server.enqueue({ status: 500, headers: { 'x-should-retry': 'false' } }, answer);

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 5_000 }));

    // Assess
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBe(1);
  });

  it('turns a server that never answers into timeout, within the time given', {
    timeout: 8_000,
  }, async () => {
    // Prepare: the hang outlasts the test's own bound, so only the adapter's deadline can end it.
    server.enqueue({ hangMs: 60_000 }, answer);

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 300 }));

    // Assess
    expect(error.failure).toBe('timeout');
    expect(error.attempts).toBe(1);
  });

  it('reports unavailable when nothing listens at the address', async () => {
    // Prepare
    const gone = await startScriptedLlmServer();
    await gone.close();

    // Act
    const error = await failureOf(modelFor(gone.baseURL).complete(request, { timeoutMs: 300 }));

    // Assess
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBeGreaterThan(1);
  });

  it('makes no call when no time is left', async () => {
    // Prepare
    server.enqueue(answer);

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 0 }));

    // Assess
    expect(error.failure).toBe('timeout');
    expect(error.attempts).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('stops with timeout when the caller cancels during a call', { timeout: 8_000 }, async () => {
    // Prepare
    server.enqueue({ hangMs: 60_000 }, answer);

    // Act
    const error = await failureOf(
      modelFor(server.baseURL).complete(request, {
        timeoutMs: 60_000,
        signal: AbortSignal.timeout(100),
      }),
    );

    // Assess
    expect(error.failure).toBe('timeout');
    expect(error.attempts).toBe(1);
  });

  it('stops with timeout when the caller cancels while waiting to retry', {
    timeout: 8_000,
  }, async () => {
    // Prepare
    server.enqueue({ status: 503, headers: { 'retry-after': '30' } }, answer);
    const controller = new AbortController();

    // Act
    const call = modelFor(server.baseURL).complete(request, {
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    const error = await failureOf(call);

    // Assess
    expect(error.failure).toBe('timeout');
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });
});
