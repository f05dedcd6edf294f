import { beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { historyText, textReply } from './http-fixtures';
import { expectError, expectVoiceResponse } from './response-contract';
import { expectValidRequestWorks, PENDING_CALL_ID, pendingConversation } from './route-recovery';

const harness = useLocalStack();
let conversationId = '';
beforeEach(async () => {
  conversationId = await pendingConversation(harness.client(), harness.llm, 'data-is-data');
});

const continueWith = (output: string) =>
  `{"conversation_id": "${conversationId}", "tool_results": [{"tool_call_id": "${PENDING_CALL_ID}", "output": ${output}}]}`;

describe('row 9: a tool output is data, whatever its keys and numbers', () => {
  it.each([
    ['a __proto__ key', '{"__proto__": {"admin": true}, "ok": 1}', '"__proto__":{"admin":true}'],
    [
      'a constructor.prototype key',
      '{"constructor": {"prototype": {"x": 1}}}',
      '"prototype":{"x":1}',
    ],
    ['1e400', '{"reading": 1e400}', '"reading":1e400'],
    ['an integer beyond 2^53', '{"id": 9007199254740993}', '"id":9007199254740993'],
  ])('%s reaches the model exactly as sent', async (_case, output, sent) => {
    // Arrange
    harness.llm.enqueue(textReply('Done.'));

    // Act
    const response = await harness
      .client()
      .post(ROUTES.continue, null, { rawBody: continueWith(output) });

    // Assess
    expectVoiceResponse(response, 'complete');
    // The tool message content is text inside the request JSON: its quotes are escaped there.
    expect(historyText(harness.llm.requests.at(-1))).toContain(JSON.stringify(sent).slice(1, -1));
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('row 8: a number a double cannot carry, outside a tool output', () => {
  it('is a 400 naming where, never a rounded value; the conversation is unchanged', async () => {
    // Act
    const response = await harness.client().post(ROUTES.command, null, {
      rawBody: `{"conversation_id": "${conversationId}", "voice_command": "hi", "node_context": {"n": 9007199254740993}}`,
    });

    // Assess
    const body = expectError(response, 400, 'invalid_json');
    expect(JSON.stringify(body)).toContain('/node_context/n');
    await expectValidRequestWorks(harness.client(), harness.llm, 'continue', conversationId);
  });
});
