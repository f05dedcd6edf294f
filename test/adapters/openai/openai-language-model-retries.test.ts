import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeTiming } from '../../support/fake-timing';
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
/** The backoff of `modelFor` (10 ms doubling up to 40 ms) with the fake's jitter of 0.5. */
const halfJitterDelays = [7.5, 15, 30, 30, 30, 30, 30];

// The deadlines, the jitter and the waits run on a fake clock: only the backoff's sleeps move
// it, so a slow machine cannot eat a deadline and a backoff of seconds takes no real time.
let timing: FakeTiming;
const model = (overrides: Parameters<typeof modelFor>[1] = {}) =>
  modelFor(server.baseURL, { timing, ...overrides });

beforeAll(async () => {
  server = await startScriptedLlmServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
  timing = new FakeTiming();
});

describe('OpenAiLanguageModel retries', () => {
  it.each([
    ['Retry-After in seconds', { 'retry-after': '0' }, 0],
    ['retry-after-ms', { 'retry-after-ms': '20' }, 20],
  ])(
    'retries a 429 with %s, waiting what it asks, then returns the reply',
    async (_case, headers, wait) => {
      // Prepare
      server.enqueue({ status: 429, headers }, answer);

      // Act
      const reply = await model().complete(request, { timeoutMs: 60_000 });

      // Assess
      expect(reply.content).toBe('Sunny.');
      expect(server.requests).toHaveLength(2);
      expect(timing.sleeps).toEqual([wait]);
    },
  );

  it('reads a Retry-After date against its clock', async () => {
    // Prepare: three seconds after the fake clock's now.
    const inThreeSeconds = new Date(timing.now() + 3_000).toUTCString();
    server.enqueue({ status: 503, headers: { 'retry-after': inThreeSeconds } }, answer);

    // Act
    const reply = await model().complete(request, { timeoutMs: 60_000 });

    // Assess
    expect(reply.content).toBe('Sunny.');
    expect(timing.sleeps).toEqual([3_000]);
  });

  it('retries a mix of 429, 503 and a dropped connection until a reply comes, backing off', async () => {
    // Prepare: the first drop is on the kept-alive connection, so the transport sends the request
    // again at once on a new one (provider-fetch.ts); the second drop is on that new connection.
    server.enqueue({ status: 429 }, { status: 503 }, { hangMs: 0 }, { hangMs: 0 }, answer);

    // Act
    const reply = await model().complete(request, { timeoutMs: 60_000 });

    // Assess
    expect(reply.content).toBe('Sunny.');
    expect(server.requests).toHaveLength(5);
    expect(timing.sleeps).toEqual(halfJitterDelays.slice(0, 3));
  });

  it('keeps half of each delay and draws the other half at random', async () => {
    // Prepare
    server.enqueue({ status: 503 }, { status: 503 }, answer);
    timing = new FakeTiming({ randoms: [0, 0.75] });

    // Act
    await model().complete(request, { timeoutMs: 60_000 });

    // Assess: 10 ms, then 20 ms, halved, plus the random part of the other half.
    expect(timing.sleeps).toEqual([5, 10 + 0.75 * 10]);
  });

  it('gives up on a server that keeps answering 429 with rate_limited, at the deadline', async () => {
    // Prepare: waits of 30 s fit at 0, 30 and 60 s into a 100 s call; the one at 90 s would not.
    // (Each attempt also gets the time left as its real HTTP timeout: 10 s at the least here.)
    server.enqueue(...forever({ status: 429, headers: { 'retry-after-ms': '30000' } }));

    // Act
    const error = await failureOf(model().complete(request, { timeoutMs: 100_000 }));

    // Assess
    expect(error.failure).toBe('rate_limited');
    expect(error.attempts).toBe(4);
    expect(server.requests).toHaveLength(4);
    expect(timing.sleeps).toEqual([30_000, 30_000, 30_000]);
    expect(error.message).toContain('a retry in 30000 ms would end past the deadline');
  });

  it('does not wait for a Retry-After that ends past the deadline', async () => {
    // Prepare
    server.enqueue({ status: 429, headers: { 'retry-after': '30' } }, answer);

    // Act
    const error = await failureOf(model().complete(request, { timeoutMs: 20_000 }));

    // Assess
    expect(error.failure).toBe('rate_limited');
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(timing.sleeps).toEqual([]);
  });

  it.each([500, 502, 503])('retries %i, then gives up with unavailable', async (status) => {
    // Prepare
    server.enqueue(...forever({ status }));

    // Act
    const error = await failureOf(model().complete(request, { timeoutMs: 60_000 }));

    // Assess: every attempt `modelFor` allows, the backoff between them.
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBe(8);
    expect(server.requests).toHaveLength(8);
    expect(timing.sleeps).toEqual(halfJitterDelays);
    expect(error.message).toContain(String(status));
  });

  it('stops at the configured number of attempts even with time left', async () => {
    // Prepare
    server.enqueue(...forever({ status: 503 }));

    // Act
    const error = await failureOf(
      model({ backoff: { baseDelayMs: 5, maxAttempts: 3 } }).complete(request, {
        timeoutMs: 10_000,
      }),
    );

    // Assess
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 5xx the server marks with x-should-retry: false', async () => {
    // Prepare
    server.enqueue({ status: 500, headers: { 'x-should-retry': 'false' } }, answer);

    // Act
    const error = await failureOf(model().complete(request, { timeoutMs: 60_000 }));

    // Assess
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBe(1);
  });

  it('turns a server that never answers into timeout, the attempt having all the time left', async () => {
    // Prepare: the hang outlasts the test's own bound, so only the attempt's timeout can end it.
    server.enqueue({ hangMs: 60_000 }, answer);

    // Act
    const error = await failureOf(model().complete(request, { timeoutMs: 300 }));

    // Assess: not retried, since no time is left for another attempt.
    expect(error.failure).toBe('timeout');
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('reports unavailable when nothing listens at the address, after every attempt', async () => {
    // Prepare
    const gone = await startScriptedLlmServer();
    await gone.close();

    // Act
    const error = await failureOf(
      modelFor(gone.baseURL, { timing }).complete(request, { timeoutMs: 60_000 }),
    );

    // Assess
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBe(8);
  });

  it('makes no call when no time is left', async () => {
    // Prepare
    server.enqueue(answer);

    // Act
    const error = await failureOf(model().complete(request, { timeoutMs: 0 }));

    // Assess
    expect(error.failure).toBe('timeout');
    expect(error.attempts).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('stops with timeout when the caller cancels during a call', async () => {
    // Prepare: the server never answers, so only the cancellation can end the call.
    server.enqueue({ hangMs: 60_000 }, answer);

    // Act
    const error = await failureOf(
      model().complete(request, { timeoutMs: 60_000, signal: AbortSignal.timeout(100) }),
    );

    // Assess
    expect(error.failure).toBe('timeout');
    expect(error.attempts).toBe(1);
  });

  it('stops with timeout when the caller cancels while waiting to retry', async () => {
    // Prepare: a clock that waits for the test, so the call is surely waiting when cancelled.
    server.enqueue({ status: 503, headers: { 'retry-after': '30' } }, answer);
    timing = new FakeTiming({ instantSleeps: false });
    const controller = new AbortController();

    // Act
    const call = model().complete(request, { timeoutMs: 60_000, signal: controller.signal });
    await timing.sleeping();
    controller.abort();
    const error = await failureOf(call);

    // Assess
    expect(error.failure).toBe('timeout');
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(timing.sleeps).toEqual([30_000]);
  });
});
