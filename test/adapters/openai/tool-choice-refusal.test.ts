import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../shared/chat/chat-message';
import { useScriptedLlmServer } from '../../support/use-scripted-llm-server';
import { modelFor, requestOf, userAsks } from './model-under-test';

const server = useScriptedLlmServer();
const options = { timeoutMs: 5_000 };
const timerTool: ToolDefinition = {
  type: 'function',
  function: {
    name: 'set_timer',
    description: 'Start a timer.',
    parameters: { type: 'object', properties: { duration_seconds: { type: 'integer' } } },
  },
};
const mustCall = requestOf([userAsks('Set a timer')], [timerTool], 'required');
const mayAnswer = requestOf([userAsks('Set a timer')], [timerTool], 'auto');

/** What vLLM answers for tool_choice "required" before it supported it. */
const refusal = {
  status: 400,
  body: {
    error: {
      message: 'tool_choice "required" is not supported; use "auto" or "none"',
      type: 'BadRequestError',
      param: 'tool_choice',
    },
  },
};

function adapterWithWarnings() {
  const warnings: { message: string; details: Record<string, unknown> }[] = [];
  const adapter = modelFor(server.baseURL, {
    warn: (message, details) => warnings.push({ message, details }),
  });
  return { adapter, warnings };
}

describe('a server that refuses tool_choice "required" (issue 29, item 3)', () => {
  it('is asked again at once without the field, never sent "required" again, logged once', async () => {
    // Prepare
    const { adapter, warnings } = adapterWithWarnings();
    server.enqueue(
      refusal,
      { reply: { content: 'First.' } },
      { reply: { content: 'Second.' } },
      { reply: { content: 'Third.' } },
    );

    // Act
    const first = await adapter.complete(mustCall, options);
    const second = await adapter.complete(mustCall, options);
    const third = await adapter.complete(mayAnswer, options);

    // Assess
    expect([first.content, second.content, third.content]).toEqual(['First.', 'Second.', 'Third.']);
    const sent = server.requests.map((request) => request.body?.tool_choice ?? null);
    expect(sent).toEqual(['required', null, null, 'auto']);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'the model server refused tool_choice "required"; sent no more from this container',
    ]);
  });
});
