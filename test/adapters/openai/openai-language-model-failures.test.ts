import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenOnFreePort } from '../../support/free-port';
import type { ScriptStep } from '../../support/scripted-llm-server';
import { useScriptedLlmServer } from '../../support/use-scripted-llm-server';
import { failureOf, modelFor, requestOf, secretApiKey, userAsks } from './model-under-test';

const server = useScriptedLlmServer();
const request = requestOf([userAsks('Weather in LA?')]);
const answer: ScriptStep = { reply: { content: 'Sunny.' } };

describe('OpenAiLanguageModel malformed replies', () => {
  it.each<[string, ScriptStep]>([
    [
      '200 with an empty choices list',
      { rawBody: '{"id":"chatcmpl-1","object":"chat.completion","choices":[]}' },
    ],
    ['200 without choices', { rawBody: '{"id":"chatcmpl-1","object":"chat.completion"}' }],
    ['a choice without a message', { rawBody: '{"choices":[{"index":0,"finish_reason":"stop"}]}' }],
    [
      'tool_calls that are not a list',
      { rawBody: '{"choices":[{"message":{"role":"assistant","tool_calls":"get_weather"}}]}' },
    ],
    [
      'a tool call without a function',
      { rawBody: '{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"call_1"}]}}]}' },
    ],
    ['a JSON body that is not an object', { rawBody: '[1,2,3]' }],
    ['a body announced as JSON that is not JSON', { rawBody: 'upstream connect error' }],
    [
      'an HTML page from a proxy',
      { rawBody: '<html><body>Bad gateway</body></html>', contentType: 'text/html' },
    ],
    [
      'a reply cut off mid-JSON',
      {
        rawBody:
          '{"id":"chatcmpl-1","choices":[{"index":0,"message":{"role":"assistant","content":"Sun',
      },
    ],
  ])('turns %s into malformed_reply without retrying', async (_case, step) => {
    // Prepare
    server.enqueue(step, answer);

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 5_000 }));

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('treats a connection dropped in the middle of the body as unavailable and retries it', async () => {
    // Prepare: a server that promises 500 bytes, sends a few, then hangs up, every time.
    let calls = 0;
    const dropping = createServer((_request, response) => {
      calls += 1;
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      response.write('{"id":"chatcmpl-1","choices":[');
      setTimeout(() => response.destroy(), 5);
    });
    const port = await listenOnFreePort(dropping);
    const model = modelFor(`http://127.0.0.1:${port}/v1`, {
      backoff: { baseDelayMs: 5, maxAttempts: 2 },
    });

    // Act
    const error = await failureOf(model.complete(request, { timeoutMs: 5_000 }));
    dropping.closeAllConnections();
    await new Promise((resolve) => dropping.close(resolve));

    // Assess
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBe(2);
    expect(calls).toBe(2);
  });
});

describe('OpenAiLanguageModel rejected requests', () => {
  it.each([400, 401, 403, 404, 422])('turns %i into rejected without retrying', async (status) => {
    // Prepare
    server.enqueue({ status }, answer);

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 5_000 }));

    // Assess
    expect(error.failure).toBe('rejected');
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(error.message).toContain(String(status));
  });

  it('keeps the API key out of the error even when the server echoes it', async () => {
    // Prepare: some self-hosted servers quote the key they refused, in full.
    server.enqueue((received) => ({
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${received.headers.authorization}`,
          type: 'invalid_request_error',
        },
      },
    }));

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 5_000 }));

    // Assess
    expect(error.failure).toBe('rejected');
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).toContain('[redacted]');
    const everything = `${error.message} ${error.stack} ${String(error.cause)} ${JSON.stringify(error)}`;
    expect(everything).not.toContain(secretApiKey);
  });

  it('keeps the API key out of a timeout error too', async () => {
    // Prepare
    server.enqueue({ hangMs: 60_000 });

    // Act
    const error = await failureOf(modelFor(server.baseURL).complete(request, { timeoutMs: 200 }));

    // Assess
    expect(error.failure).toBe('timeout');
    expect(`${error.message} ${String(error.cause)}`).not.toContain(secretApiKey);
  });
});

describe('OpenAiLanguageModel against a server without authentication', () => {
  it('accepts an empty API key and still calls the server', async () => {
    // Prepare
    server.enqueue(answer);

    // Act
    const reply = await modelFor(server.baseURL, { apiKey: '' }).complete(request, {
      timeoutMs: 5_000,
    });

    // Assess
    expect(reply.content).toBe('Sunny.');
    expect(server.requests).toHaveLength(1);
  });
});
