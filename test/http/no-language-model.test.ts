import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { ROUTES } from '../support/api-client';
import { apiKeyOf, NODE_A, useLocalStack } from '../support/local-stack-harness';
import { conversationIdFor, fixtureStartBody, startWithFixture } from './http-fixtures';
import { expectError, expectStarted } from './response-contract';

/** `npm start` without OPENAI_BASE_URL, OPENAI_API_KEY and LLM_MODEL. */
const harness = useLocalStack({ languageModel: false });

describe('503 llm_not_configured: a stack started without a language model', () => {
  it('reports no model configured', () => {
    // Assess
    expect(harness.stack.languageModelConfigured).toBe(false);
  });

  it.each([
    ['voice/command', ROUTES.command, { voice_command: 'what time is it' }],
    [
      'voice/command/continue',
      ROUTES.continue,
      { tool_results: [{ tool_call_id: 'call_1', output: 'x' }] },
    ],
  ])(
    '%s answers 503 saying what to set; conversation/start then still works',
    async (_route, path, fields) => {
      // Prepare
      const conversationId = await startWithFixture(harness.client(), 'no-model');

      // Act
      const response = await harness
        .client()
        .post(path, { ...fields, conversation_id: conversationId });

      // Assess
      const error = expectError(response, 503, 'llm_not_configured');
      for (const variable of ['OPENAI_BASE_URL', 'LLM_MODEL'])
        expect(error.error.message).toContain(variable);
      // Local model servers (Ollama, llama.cpp, vLLM) take no key: it is not demanded.
      expect(error.error.message).toContain('OPENAI_API_KEY only if that server needs one');
      const next = conversationIdFor('after-503');
      expectStarted(await harness.client().post(ROUTES.start, fixtureStartBody(next)), next);
    },
  );

  it('still authenticates first: a wrong key is a 401, not a 503', async () => {
    // Act
    const response = await harness
      .client()
      .post(
        ROUTES.command,
        { conversation_id: 'any', voice_command: 'hello' },
        { key: 'node-a:wrong' },
      );

    // Assess
    expectError(response, 401, 'unauthorized');
  });
});

describe('the routes that never need a model, on a stack without one', () => {
  it('acknowledge and date-context answer 200, so a node is not degraded by a missing model', async () => {
    const acknowledged = await harness.client().post(ROUTES.acknowledge, { voice_command: 'hi' });
    const dates = await harness.client().get(ROUTES.dateContext);

    expect(acknowledged.status).toBe(200);
    expect(dates.status).toBe(200);
  });
});

describe('the chat and wake-response routes on a stack without a model', () => {
  it('chat answers 503 saying what to set, after the key is checked', async () => {
    const body = { messages: [{ role: 'system', content: 'Summarise: sunny.' }] };

    const refused = await harness.client().post(routePath('chat'), body, { key: 'node-a:wrong' });
    const response = await harness.client().post(routePath('chat'), body);

    expectError(refused, 401, 'unauthorized');
    const error = expectError(response, 503, 'llm_not_configured');
    for (const variable of ['OPENAI_BASE_URL', 'LLM_MODEL'])
      expect(error.error.message).toContain(variable);
  });

  it('wake-response answers 200 to a POST with no body and no Content-Type, as the node sends it', async () => {
    const response = await fetch(`${harness.stack.url}${routePath('wake-response')}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKeyOf(NODE_A) },
    });

    expect(response.status).toBe(200);
    const body = (await response.json()) as { text: string };
    expect(body.text.trim()).not.toBe('');
  });
});
