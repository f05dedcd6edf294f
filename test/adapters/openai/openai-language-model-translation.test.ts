import { describe, expect, it } from 'vitest';
import { OpenAiLanguageModel } from '../../../shared/adapters/openai';
import type { ChatMessage } from '../../../shared/chat/chat-message';
import { useScriptedLlmServer } from '../../support/use-scripted-llm-server';
import { modelFor, requestOf, secretApiKey, userAsks, weatherTool } from './model-under-test';

const server = useScriptedLlmServer();
const options = { timeoutMs: 5_000 };

describe('OpenAiLanguageModel request translation', () => {
  it('sends every kind of message in the Chat Completions wire shape', async () => {
    // Prepare
    const history: ChatMessage[] = [
      { role: 'system', content: 'You are Jarvis.' },
      userAsks('Weather in LA and Paris?'),
      {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'call_1', name: 'get_weather', arguments: '{"city":"LA"}' },
          { id: 'call_2', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
      },
      { role: 'tool', toolCallId: 'call_1', content: '{"temperature":21}' },
      { role: 'tool', toolCallId: 'call_2', content: '{"temperature":9}' },
      { role: 'assistant', content: 'Sunny in LA, cold in Paris.', toolCalls: [] },
      userAsks('Thanks'),
    ];
    server.enqueue({ reply: { content: 'You are welcome.' } });

    // Act
    await modelFor(server.baseURL).complete(requestOf(history), options);

    // Assess
    expect(server.protocolViolations).toEqual([]);
    expect(server.requests[0]?.body?.messages).toEqual([
      { role: 'system', content: 'You are Jarvis.' },
      { role: 'user', content: 'Weather in LA and Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"LA"}' },
          },
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"temperature":9}' },
      { role: 'assistant', content: 'Sunny in LA, cold in Paris.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('sends an assistant message without content or tool calls as empty text, which the API accepts', async () => {
    // Prepare
    const history: ChatMessage[] = [
      userAsks('Hi'),
      { role: 'assistant', content: null, toolCalls: [] },
      userAsks('Hello?'),
    ];
    server.enqueue({ reply: { content: 'Hello.' } });

    // Act
    await modelFor(server.baseURL).complete(requestOf(history), options);

    // Assess
    expect(server.protocolViolations).toEqual([]);
    expect(server.requests[0]?.body?.messages?.[1]).toEqual({ role: 'assistant', content: '' });
  });

  it.each(['auto', 'required'] as const)(
    'sends the tools with tool_choice %s',
    async (toolChoice) => {
      // Prepare
      server.enqueue({ reply: { content: 'ok' } });

      // Act
      await modelFor(server.baseURL).complete(
        requestOf([userAsks('Weather?')], [weatherTool], toolChoice),
        options,
      );

      // Assess
      const body = server.requests[0]?.body;
      expect(body?.tools).toEqual([weatherTool]);
      expect(body?.tool_choice).toBe(toolChoice);
    },
  );

  it.each(['auto', 'required'] as const)(
    'leaves out tools and tool_choice (%s) when there are no tools',
    async (toolChoice) => {
      // Prepare
      server.enqueue({ reply: { content: 'ok' } });

      // Act
      await modelFor(server.baseURL).complete(requestOf([userAsks('Hi')], [], toolChoice), options);

      // Assess
      expect(server.protocolViolations).toEqual([]);
      expect(server.requests[0]?.body).not.toHaveProperty('tools');
      expect(server.requests[0]?.body).not.toHaveProperty('tool_choice');
    },
  );

  it('sends the model, the temperature, max_tokens and the key as a bearer token', async () => {
    // Prepare
    server.enqueue({ reply: { content: 'ok' } });
    const model = modelFor(server.baseURL, {
      model: 'qwen2.5-7b',
      temperature: 0.2,
      maxTokens: 256,
    });

    // Act
    await model.complete(requestOf([userAsks('Hi')]), options);

    // Assess
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${secretApiKey}`);
    expect(request?.body).toMatchObject({ model: 'qwen2.5-7b', temperature: 0.2, max_tokens: 256 });
  });

  it('leaves out the temperature and max_tokens when not configured', async () => {
    // Prepare
    server.enqueue({ reply: { content: 'ok' } });

    // Act
    await modelFor(server.baseURL).complete(requestOf([userAsks('Hi')]), options);

    // Assess
    expect(server.requests[0]?.body).not.toHaveProperty('temperature');
    expect(server.requests[0]?.body).not.toHaveProperty('max_tokens');
  });
});

describe('OpenAiLanguageModel reply translation', () => {
  it('returns the content, the tool calls and the finish reason', async () => {
    // Prepare
    server.enqueue({
      reply: {
        content: 'Checking.',
        tool_calls: [{ id: 'call_abc', name: 'get_weather', arguments: '{"city":"LA"}' }],
      },
    });

    // Act
    const reply = await modelFor(server.baseURL).complete(
      requestOf([userAsks('Weather?')]),
      options,
    );

    // Assess
    expect(reply).toEqual({
      content: 'Checking.',
      toolCalls: [{ id: 'call_abc', name: 'get_weather', arguments: '{"city":"LA"}' }],
      finishReason: 'tool_calls',
      usage: {
        promptTokens: expect.any(Number),
        completionTokens: expect.any(Number),
        cachedTokens: 0,
      },
    });
  });

  it('reads the usage the server reports, cached prompt tokens included', async () => {
    server.enqueue({
      rawBody: JSON.stringify({
        choices: [{ message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: 3900,
          completion_tokens: 12,
          prompt_tokens_details: { cached_tokens: 3840 },
        },
      }),
    });

    const reply = await modelFor(server.baseURL).complete(requestOf([userAsks('Hi?')]), options);

    expect(reply.usage).toEqual({ promptTokens: 3900, completionTokens: 12, cachedTokens: 3840 });
  });

  it('sends max_tokens on every request when it is set', async () => {
    server.enqueue({ reply: { content: 'Short.' } });

    await new OpenAiLanguageModel({
      baseURL: server.baseURL,
      apiKey: 'k',
      model: 'm',
      maxTokens: 256,
    }).complete(requestOf([userAsks('Hi?')]), options);

    expect(server.requests.at(-1)?.body).toMatchObject({ max_tokens: 256 });
  });

  it('returns a plain answer with no tool calls', async () => {
    // Prepare
    server.enqueue({ reply: { content: 'It is sunny.' } });

    // Act
    const reply = await modelFor(server.baseURL).complete(
      requestOf([userAsks('Weather?')]),
      options,
    );

    // Assess
    expect(reply).toMatchObject({ content: 'It is sunny.', toolCalls: [], finishReason: 'stop' });
  });

  it.each([
    ['missing', null],
    ['empty', ''],
  ])('turns a %s tool call id into null', async (_case, id) => {
    // Prepare
    server.enqueue({ reply: { tool_calls: [{ id, name: 'get_weather', arguments: '{}' }] } });

    // Act
    const reply = await modelFor(server.baseURL).complete(
      requestOf([userAsks('Weather?')]),
      options,
    );

    // Assess
    expect(reply.toolCalls).toEqual([{ id: null, name: 'get_weather', arguments: '{}' }]);
  });

  it.each([
    ['an object', { city: 'LA', days: [1, 2] }],
    ['an empty string', ''],
    ['broken JSON', '{"city": "LA"'],
    ['a number', 42],
  ])('passes arguments through as received when they are %s', async (_case, received) => {
    // Prepare
    server.enqueue({
      reply: { tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: received }] },
    });

    // Act
    const reply = await modelFor(server.baseURL).complete(
      requestOf([userAsks('Weather?')]),
      options,
    );

    // Assess
    expect(reply.toolCalls[0]?.arguments).toEqual(received);
  });

  it('passes a finish reason such as length through', async () => {
    // Prepare
    server.enqueue({ reply: { content: 'The forecast is', finish_reason: 'length' } });

    // Act
    const reply = await modelFor(server.baseURL).complete(
      requestOf([userAsks('Weather?')]),
      options,
    );

    // Assess
    expect(reply.finishReason).toBe('length');
  });
});
