import { createHash } from 'node:crypto';
import { type AttributeValue, ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDynamoDbClient } from '../../shared/adapters/dynamodb';
import { decompressText } from '../../shared/adapters/dynamodb/compression';
import { ROUTES } from '../support/api-client';
import { NODE_A, OPENAI_TEST_KEY, useLocalStack } from '../support/local-stack-harness';
import type { RecordedRequest } from '../support/scripted-llm-server';
import { callsReply, startWithFixture, textReply, toolCall } from './http-fixtures';
import { expectError, expectVoiceResponse } from './response-contract';

/** Every log level on, so that a key in a debug line would be caught too. */
const harness = useLocalStack({ env: { POWERTOOLS_LOG_LEVEL: 'DEBUG' } });

/** A model server that repeats the Authorization header it got in its error, as some proxies do. */
const echoKeyInError = (request: RecordedRequest) => ({
  status: 500,
  headers: { 'x-should-retry': 'false' },
  body: {
    error: {
      message: `upstream refused ${request.headers.authorization ?? ''}`,
      type: 'server_error',
    },
  },
});

describe('keys never appear in the logs', () => {
  it('neither the node key nor the OpenAI key is written while requests succeed and fail', async () => {
    // Prepare
    const outputBefore = harness.output.length;
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'secrets');
    harness.llm.enqueue(
      echoKeyInError,
      callsReply(toolCall('set_timer', { duration_seconds: 60 }, 'call_minute')),
      textReply('Done.'),
    );

    // Act
    const failed = await client.post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: 'one minute timer',
    });
    const called = await client.post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: 'one minute timer',
    });
    const done = await client.post(ROUTES.continue, {
      conversation_id: conversationId,
      tool_results: [{ tool_call_id: 'call_minute', output: 'started' }],
    });
    const wrongKey = await client.post(
      ROUTES.command,
      { conversation_id: conversationId, voice_command: 'hi' },
      { key: `${NODE_A.nodeId}:${NODE_A.key}-typo` },
    );
    const written = harness.output.slice(outputBefore).join('');

    // Assess: the keys were really in play
    expectError(failed, 502, 'llm_failed');
    expectVoiceResponse(called, 'tool_calls');
    expectVoiceResponse(done, 'complete');
    expectError(wrongKey, 401, 'unauthorized');
    expect(harness.llm.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_TEST_KEY}`);
    expect(written).toContain('request failed');
    expect(written).toContain('upstream refused Bearer');
    expect(written).toContain('turn finished');
    expect(written).toContain('request rejected');

    // Assess: and never written
    expect(written).not.toContain(NODE_A.key);
    expect(written).not.toContain(OPENAI_TEST_KEY);
    for (const response of [failed, called, done, wrongKey]) {
      expect(response.text).not.toContain(NODE_A.key);
      expect(response.text).not.toContain(OPENAI_TEST_KEY);
    }
  });

  it('the store holds a node key only as its SHA-256, and no OpenAI key at all', async () => {
    // Prepare: a conversation and a turn, so there is more in the table than the node items.
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'stored-secrets');
    harness.llm.enqueue(textReply('Hello.'));
    expectVoiceResponse(
      await client.post(ROUTES.command, { conversation_id: conversationId, voice_command: 'hi' }),
      'complete',
    );
    const database = createDynamoDbClient({
      region: 'us-east-1',
      endpoint: harness.stack.dynamoDbEndpoint,
    });

    // Act
    const { Items: items = [] } = await database
      .send(new ScanCommand({ TableName: harness.stack.tableName }))
      .finally(() => database.destroy());

    // Assess: every attribute as text, the compressed ones (history, registration,
    // recorded answers) decompressed first, or a key inside them could never be seen.
    const stored = items.map(readableItem).join('\n');
    expect(items.length).toBeGreaterThan(1);
    expect(stored).toContain('"role":"user"');
    expect(stored).toContain(createHash('sha256').update(NODE_A.key).digest('hex'));
    expect(stored).not.toContain(NODE_A.key);
    expect(stored).not.toContain(OPENAI_TEST_KEY);
  });
});

/** An item as text, each binary attribute decompressed (the store compresses the large ones). */
function readableItem(item: Record<string, AttributeValue>): string {
  return Object.values(item)
    .map((value) => (value.B === undefined ? JSON.stringify(value) : decompressText(value.B)))
    .join('\n');
}
