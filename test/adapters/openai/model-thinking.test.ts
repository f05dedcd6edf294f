import { describe, expect, it } from 'vitest';
import {
  lowestBedrockEffort,
  lowestOpenAiEffort,
  type ModelServer,
  serverFamily,
} from '../../../shared/adapters/openai/thinking-fields';
import { useScriptedLlmServer } from '../../support/use-scripted-llm-server';
import { failureOf, modelFor, requestOf, userAsks } from './model-under-test';

const server = useScriptedLlmServer();
const options = { timeoutMs: 5_000 };
const hello = requestOf([userAsks('Hello?')]);

/** What a server that does not know a field answers (OpenAI's wording, any such server's status). */
const refusalOf = (field: string) => ({
  status: 400,
  body: {
    error: {
      message: `Unrecognized request argument supplied: ${field}`,
      type: 'invalid_request_error',
      param: field,
      code: null,
    },
  },
});

/** The adapter with MODEL_THINKING / MODEL_SERVER, and the warnings it logs. */
function thinkingModel(
  thinking: 'off' | 'on',
  modelServer: ModelServer,
  model = 'qwen3-0.6b',
  baseURL = server.baseURL,
) {
  const warnings: { message: string; details: Record<string, unknown> }[] = [];
  const adapter = modelFor(baseURL, {
    model,
    thinking: { thinking, server: modelServer },
    warn: (message, details) => warnings.push({ message, details }),
  });
  return { adapter, warnings };
}

describe('MODEL_THINKING=off: the field each server family documents', () => {
  it.each([
    ['llama.cpp', 'qwen3-0.6b', { chat_template_kwargs: { enable_thinking: false } }],
    ['vllm', 'Qwen/Qwen3-8B', { chat_template_kwargs: { enable_thinking: false } }],
    ['sglang', 'Qwen/Qwen3-8B', { chat_template_kwargs: { enable_thinking: false } }],
    ['ollama', 'qwen3:0.6b', { reasoning_effort: 'none' }],
    ['openai', 'gpt-5.1', { reasoning_effort: 'none' }],
    ['openai', 'gpt-5-mini', { reasoning_effort: 'minimal' }],
    ['openai', 'o4-mini', { reasoning_effort: 'low' }],
    ['auto', 'qwen3-0.6b', { chat_template_kwargs: { enable_thinking: false } }],
  ] as const)('%s (%s) gets %j', async (family, model, fields) => {
    // Prepare
    server.enqueue({ reply: { content: 'Hi.' } });

    // Act
    await thinkingModel('off', family, model).adapter.complete(hello, options);

    // Assess
    expect(server.requests[0]?.body).toMatchObject(fields);
    expect(server.protocolViolations).toEqual([]);
  });

  it.each([
    ['off, an OpenAI model that does not reason', 'off', 'openai', 'gpt-4.1-mini'],
    ['on, whatever the server', 'on', 'llama.cpp', 'qwen3-0.6b'],
    ['on, OpenAI', 'on', 'openai', 'gpt-5.1'],
  ] as const)('sends nothing of thinking: %s', async (_case, thinking, family, model) => {
    server.enqueue({ reply: { content: 'Hi.' } });

    await thinkingModel(thinking, family, model).adapter.complete(hello, options);

    expect(server.requests[0]?.body).not.toHaveProperty('reasoning_effort');
    expect(server.requests[0]?.body).not.toHaveProperty('chat_template_kwargs');
  });
});

describe('MODEL_SERVER=auto', () => {
  it.each([
    ['https://api.openai.com/v1', 'openai'],
    ['http://localhost:11434/v1', 'ollama'],
    ['http://192.168.1.20:11434/v1', 'ollama'],
    ['http://127.0.0.1:8080/v1', 'chat-template'],
    ['http://gpu-box:8000/v1', 'chat-template'],
    ['not a url', 'chat-template'],
    ['https://bedrock-mantle.us-east-1.api.aws/v1', 'bedrock'],
    ['https://bedrock-runtime.eu-west-1.amazonaws.com/openai/v1', 'bedrock'],
  ])('takes %s for %s', (baseURL, family) => {
    expect(serverFamily('auto', baseURL)).toBe(family);
  });

  it('takes a client signed for Bedrock for Bedrock, whatever its URL (a stand-in)', () => {
    expect(serverFamily('auto', 'http://127.0.0.1:8080/v1', true)).toBe('bedrock');
  });
});

describe('the lowest reasoning effort of a model on Bedrock', () => {
  it.each([
    ['openai.gpt-oss-20b', 'low'],
    ['openai.gpt-oss-120b', 'low'],
    ['openai.gpt-oss-safeguard-20b', 'low'],
    ['openai.gpt-5.4', 'none'],
    ['qwen.qwen3-32b', null],
    ['google.gemma-3-27b-it', null],
    ['mistral.ministral-3-8b-instruct', null],
  ])('%s: %s', (model, effort) => {
    expect(lowestBedrockEffort(model)).toBe(effort);
  });
});

describe('the lowest reasoning effort of an OpenAI model', () => {
  it.each([
    ['gpt-5.1', 'none'],
    ['gpt-5.2', 'none'],
    ['gpt-5', 'minimal'],
    ['gpt-5-nano', 'minimal'],
    ['gpt-5-mini-2025-08-07', 'minimal'],
    ['o3', 'low'],
    ['o4-mini', 'low'],
    ['gpt-5.1-codex', 'low'],
    ['gpt-5-pro', null],
    ['gpt-4.1-mini', null],
    ['gpt-4o', null],
  ])('%s: %s', (model, effort) => {
    expect(lowestOpenAiEffort(model)).toBe(effort);
  });
});

describe('a server that refuses the thinking field', () => {
  it('is asked again at once without it, never sent it again, and that is logged once', async () => {
    // Prepare
    const { adapter, warnings } = thinkingModel('off', 'auto');
    server.enqueue(
      refusalOf('chat_template_kwargs'),
      { reply: { content: 'First.' } },
      { reply: { content: 'Second.' } },
    );

    // Act
    const first = await adapter.complete(hello, options);
    const second = await adapter.complete(hello, options);

    // Assess: one retry for the refusal, then never the field again
    expect([first.content, second.content]).toEqual(['First.', 'Second.']);
    const sent = server.requests.map((request) => 'chat_template_kwargs' in (request.body ?? {}));
    expect(sent).toEqual([true, false, false]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.details).toMatchObject({ fields: ['chat_template_kwargs'] });
  });

  it('still fails on a refusal that names something else, without a second request', async () => {
    const { adapter, warnings } = thinkingModel('off', 'auto');
    server.enqueue({
      status: 400,
      body: {
        error: { message: "The model 'nope' does not exist", type: 'invalid_request_error' },
      },
    });

    const error = await failureOf(adapter.complete(hello, options));

    expect(error.failure).toBe('rejected');
    expect(server.requests).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it('asks again only once: a second refusal is the request failing', async () => {
    const { adapter } = thinkingModel('off', 'ollama');
    server.enqueue(refusalOf('reasoning_effort'), refusalOf('reasoning_effort'));

    const error = await failureOf(adapter.complete(hello, options));

    expect(error.failure).toBe('rejected');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).not.toHaveProperty('reasoning_effort');
  });
});

describe('reasoning tokens', () => {
  it('are read from completion_tokens_details, and absent when the server says nothing', async () => {
    // Prepare
    const usage = { prompt_tokens: 2747, completion_tokens: 400, total_tokens: 3147 };
    const body = (details: Record<string, unknown>) =>
      JSON.stringify({
        choices: [{ message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
        usage: { ...usage, ...details },
      });
    server.enqueue(
      { rawBody: body({ completion_tokens_details: { reasoning_tokens: 371 } }) },
      { rawBody: body({}) },
    );
    const adapter = modelFor(server.baseURL);

    // Act
    const thought = await adapter.complete(hello, options);
    const silent = await adapter.complete(hello, options);

    // Assess
    expect(thought.usage).toEqual({
      promptTokens: 2747,
      completionTokens: 400,
      cachedTokens: 0,
      reasoningTokens: 371,
    });
    expect(silent.usage).not.toHaveProperty('reasoningTokens');
  });
});
