import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDynamoDbClient, DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../shared/adapters/node-key';
import { ROUTES } from '../support/api-client';
import { apiKeyOf, NODE_A, NODE_B, useLocalStack } from '../support/local-stack-harness';
import { callsReply, startWithFixture, textReply, toolCall } from './http-fixtures';
import { expectError, expectVoiceResponse } from './response-contract';
import {
  expectValidRequestWorks,
  PENDING_CALL_ID,
  pendingConversation,
  ROUTE_NAMES,
  type RouteName,
  validBody,
} from './route-recovery';

const harness = useLocalStack();
const DISABLED = { nodeId: 'node-disabled', key: 'nodekey-disabled-0f8e2a61c4b79d35' };

beforeAll(async () => {
  // Registered straight in the table, as `npm run node:add` would, then switched off.
  const client = createDynamoDbClient({
    region: 'us-east-1',
    endpoint: harness.stack.dynamoDbEndpoint,
  });
  const registry = new DynamoDbNodeRegistry({ client, tableName: harness.stack.tableName });
  await registry.put({
    nodeId: DISABLED.nodeId,
    keyHash: hashNodeKey(DISABLED.key),
    timezone: 'Europe/Berlin',
    room: null,
    name: null,
    enabled: false,
  });
  client.destroy();
});

let conversationId = '';
beforeEach(async () => {
  conversationId = await pendingConversation(harness.client(), harness.llm, 'access');
});

const KEYS: readonly (readonly [string, string | null])[] = [
  ['no X-API-Key', null],
  ['an empty X-API-Key', ''],
  ['a key without node id', `:${NODE_A.key}`],
  ['a node id without key', `${NODE_A.nodeId}:`],
  ['no separator', `${NODE_A.nodeId}${NODE_A.key}`],
  ['a wrong key', `${NODE_A.nodeId}:${NODE_A.key}-wrong`],
  ['another node’s key', `${NODE_A.nodeId}:${NODE_B.key}`],
  ['an unknown node', `node-unknown:${NODE_A.key}`],
  ['a disabled node with its right key', apiKeyOf(DISABLED)],
];

describe.each(ROUTE_NAMES)('401 on %s', (route: RouteName) => {
  it.each(KEYS)(
    '%s is refused without echoing the key; a valid request then works',
    async (_case, key) => {
      // Act
      const response = await harness
        .client()
        .post(ROUTES[route], validBody(route, conversationId), { key });

      // Assess
      expectError(response, 401, 'unauthorized');
      for (const secret of [NODE_A.key, NODE_B.key, DISABLED.key])
        expect(response.text).not.toContain(secret);
      await expectValidRequestWorks(harness.client(), harness.llm, route, conversationId);
    },
  );
});

describe.each(['command', 'continue'] as const)('404 on %s', (route) => {
  it('for a conversation that was never started; a valid request then works', async () => {
    // Act
    const response = await harness
      .client()
      .post(ROUTES[route], validBody(route, `${conversationId}-unknown`));

    // Assess
    expectError(response, 404, 'conversation_not_found');
    await expectValidRequestWorks(harness.client(), harness.llm, route, conversationId);
  });

  it('for another node’s conversation; its owner then carries on', async () => {
    // Act
    const response = await harness
      .client(NODE_B)
      .post(ROUTES[route], validBody(route, conversationId));

    // Assess
    expectError(response, 404, 'conversation_not_found');
    await expectValidRequestWorks(harness.client(), harness.llm, route, conversationId);
  });
});

describe('409 nothing_pending on continue', () => {
  const continueWith = (id: string, output = 1) => ({
    conversation_id: id,
    tool_results: [{ tool_call_id: PENDING_CALL_ID, output }],
  });

  it('right after conversation/start; a voice/command then works', async () => {
    // Prepare
    const fresh = await startWithFixture(harness.client(), 'nothing-yet');

    // Act
    const response = await harness.client().post(ROUTES.continue, continueWith(fresh));

    // Assess
    expectError(response, 409, 'nothing_pending');
    harness.llm.enqueue(textReply('Hello.'));
    expectVoiceResponse(
      await harness.client().post(ROUTES.command, { conversation_id: fresh, voice_command: 'hi' }),
      'complete',
    );
  });

  it('after the turn completed; the next exchange then works', async () => {
    // Prepare
    harness.llm.enqueue(textReply('Timer started.'));
    expectVoiceResponse(
      await harness.client().post(ROUTES.continue, continueWith(conversationId)),
      'complete',
    );

    // Act: other results (the same ones would get the recorded answer again).
    const response = await harness.client().post(ROUTES.continue, continueWith(conversationId, 2));

    // Assess
    expectError(response, 409, 'nothing_pending');
    harness.llm.enqueue(callsReply(toolCall('cancel_timer', {}, 'call_cancel')));
    const next = await harness
      .client()
      .post(ROUTES.command, { conversation_id: conversationId, voice_command: 'cancel it' });
    expect(expectVoiceResponse(next, 'tool_calls').tool_calls[0]?.id).toBe('call_cancel');
  });
});
