import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
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
