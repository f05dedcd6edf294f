import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { NODE_B, useLocalStack } from '../support/local-stack-harness';
import {
  callsReply,
  fixtureStartBody,
  messagesOf,
  startWithFixture,
  textReply,
  toolCall,
} from './http-fixtures';
import { expectError, expectStarted, expectVoiceResponse, onlyCallOf } from './response-contract';

const harness = useLocalStack();

/** Starts a conversation for node-a and leaves one call pending (`call_timer`). */
async function conversationWithPendingCall(label: string): Promise<string> {
  const conversationId = await startWithFixture(harness.client(), label);
  harness.llm.enqueue(callsReply(toolCall('set_timer', { duration_seconds: 300 }, 'call_timer')));
  const response = await harness.client().post(ROUTES.command, {
    conversation_id: conversationId,
    voice_command: 'five minute timer',
  });
  expect(onlyCallOf(expectVoiceResponse(response, 'tool_calls')).id).toBe('call_timer');
  return conversationId;
}

describe('one node cannot see another node’s conversation', () => {
  it.each([
    ['voice/command', ROUTES.command, { voice_command: 'cancel my timer' }],
    [
      'voice/command/continue',
      ROUTES.continue,
      { tool_results: [{ tool_call_id: 'call_timer', output: 'done' }] },
    ],
  ])(
    '%s on node-a’s conversation answers node-b 404, exactly as for an unknown id',
    async (_name, route, fields) => {
      // Prepare
      const conversationId = await conversationWithPendingCall('private');

      // Act
      const foreign = await harness
        .client(NODE_B)
        .post(route, { ...fields, conversation_id: conversationId });
      const unknown = await harness
        .client(NODE_B)
        .post(route, { ...fields, conversation_id: `${conversationId}-x` });

      // Assess
      const foreignBody = expectError(foreign, 404, 'conversation_not_found');
      const unknownBody = expectError(unknown, 404, 'conversation_not_found');
      expect(foreignBody.error.message.replace(conversationId, '<id>')).toBe(
        unknownBody.error.message.replace(`${conversationId}-x`, '<id>'),
      );
      expect(harness.llm.requests).toHaveLength(1);
    },
  );

  it('node-b starting the same conversation id gets its own conversation; node-a’s is untouched', async () => {
    // Prepare
    const conversationId = await conversationWithPendingCall('shared-id');
    harness.llm.enqueue(textReply('Timer set for five minutes.'));

    // Act
    const started = await harness
      .client(NODE_B)
      .post(ROUTES.start, fixtureStartBody(conversationId));
    const nodeBContinue = await harness.client(NODE_B).post(ROUTES.continue, {
      conversation_id: conversationId,
      tool_results: [{ tool_call_id: 'call_timer', output: 'done' }],
    });
    const nodeAContinue = await harness.client().post(ROUTES.continue, {
      conversation_id: conversationId,
      tool_results: [{ tool_call_id: 'call_timer', output: { status: 'started' } }],
    });

    // Assess
    expectStarted(started, conversationId);
    expectError(nodeBContinue, 409, 'nothing_pending');
    expect(expectVoiceResponse(nodeAContinue, 'complete').assistant_message).toBe(
      'Timer set for five minutes.',
    );
    const nodeResult = messagesOf(harness.llm.requests.at(-1)).find(
      (message) => message.tool_call_id === 'call_timer',
    );
    expect(JSON.parse(String(nodeResult?.content))).toEqual({ status: 'started' });
  });
});

describe('conversation/start again with the same id by the same node', () => {
  it('replaces the conversation: what was pending is gone, and the new one works', async () => {
    // Prepare
    const conversationId = await conversationWithPendingCall('restart');
    harness.llm.enqueue(textReply('Hello again.'));

    // Act
    const restarted = await harness.client().post(ROUTES.start, fixtureStartBody(conversationId));
    const stale = await harness.client().post(ROUTES.continue, {
      conversation_id: conversationId,
      tool_results: [{ tool_call_id: 'call_timer', output: 'done' }],
    });
    const fresh = await harness
      .client()
      .post(ROUTES.command, { conversation_id: conversationId, voice_command: 'hi' });

    // Assess
    expectStarted(restarted, conversationId);
    expectError(stale, 409, 'nothing_pending');
    expectVoiceResponse(fresh, 'complete');
    expect(JSON.stringify(messagesOf(harness.llm.requests.at(-1)))).not.toContain(
      'five minute timer',
    );
  });
});
