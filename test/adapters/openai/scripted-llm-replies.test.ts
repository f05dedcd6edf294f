import { describe, expect, it } from 'vitest';
import { useScriptedLlmServer } from '../../support/use-scripted-llm-server';
import { bodyWith, post as postTo } from './scripted-llm-requests';

const server = useScriptedLlmServer();
const post = (body: unknown, path?: string) => postTo(server, body, path);

describe('scripted LLM server replies', () => {
  it('answers a reply step with a completion shaped like the real one', async () => {
    // Prepare
    server.enqueue({
      reply: {
        tool_calls: [
          { name: 'get_weather', arguments: '{"city":"LA"}' },
          { id: null, name: 'get_weather', arguments: { city: 'Paris' } },
        ],
      },
    });

    // Act
    const response = await post(bodyWith({}));

    // Assess
    expect(response.json).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'test-model',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_scripted_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"LA"}' },
              },
              { type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      },
    });
    expect(response.json.choices?.[0]?.message.tool_calls?.[1]).not.toHaveProperty('id');
  });

  it.each(['/v1/chat/completions', '/chat/completions'])(
    'records a request to %s with its headers and parsed body',
    async (path) => {
      // Prepare
      server.enqueue({ reply: { content: 'ok' } });

      // Act
      const response = await post(bodyWith({}), path);

      // Assess
      expect(response.status).toBe(200);
      expect(server.requests).toEqual([
        expect.objectContaining({ method: 'POST', path, body: bodyWith({}) }),
      ]);
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    },
  );

  it('answers an empty script with a 500 and records the request as unexpected', async () => {
    // Act
    const response = await post(bodyWith({}));

    // Assess
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(server.unexpectedRequests).toEqual([
      { request: server.requests[0], error: 'script exhausted' },
    ]);
  });

  it('computes a step from the request', async () => {
    // Prepare
    server.enqueue((request) => ({
      reply: { content: `you sent ${request.body?.messages?.length} messages` },
    }));

    // Act
    const response = await post(bodyWith({}));

    // Assess
    expect(response.json.choices?.[0]?.message.content).toBe('you sent 3 messages');
  });

  it('answers a status step with its headers and an OpenAI-style error body', async () => {
    // Prepare
    server.enqueue({ status: 429, headers: { 'retry-after': '1' } });

    // Act
    const response = await post(bodyWith({}));

    // Assess
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.json.error).toMatchObject({ message: expect.any(String), type: 'requests' });
  });

  it('sends a raw body verbatim', async () => {
    // Prepare
    server.enqueue({ rawBody: '{"choices": []}', status: 200 });

    // Act
    const response = await post(bodyWith({}));

    // Assess
    expect(response.json).toEqual({ choices: [] });
  });

  it('closes the connection without an answer after a hang', async () => {
    // Prepare
    server.enqueue({ hangMs: 20 });

    // Act
    const outcome = post(bodyWith({}));

    // Assess
    await expect(outcome).rejects.toThrow();
  });

  it('lists one model', async () => {
    // Act
    const response = await fetch(`${server.baseURL}/models`);

    // Assess
    expect(await response.json()).toMatchObject({
      object: 'list',
      data: [{ id: 'scripted-model', object: 'model' }],
    });
  });

  it('answers an unknown path with a 404', async () => {
    // Act
    const response = await fetch(`${server.baseURL}/embeddings`, { method: 'POST', body: '{}' });

    // Assess
    expect(response.status).toBe(404);
  });

  it('forgets the script and the records on reset', async () => {
    // Prepare
    server.enqueue({ reply: { content: 'dropped' } });
    await post(bodyWith({ model: '' }));

    // Act
    server.reset();
    const response = await post(bodyWith({}));

    // Assess
    expect(response.status).toBe(500);
    expect(server.requests).toHaveLength(1);
    expect(server.protocolViolations).toEqual([]);
  });
});
