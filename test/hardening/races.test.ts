import { describe, expect, it } from 'vitest';
import { DynamoDbConversationStore } from '../../shared/adapters/dynamodb';
import { systemClock } from '../../shared/adapters/system/system-clock';
import { assertValidHistory } from '../support/engine-fixtures';
import { eventFor, startTimerConversation, useRealHandlers } from './handler-harness';

const PARALLEL = 20;
const handlers = useRealHandlers();

const command = (conversationId: string, utterance: string) =>
  handlers().invoke(
    '/api/v0/voice/command',
    eventFor(
      '/api/v0/voice/command',
      JSON.stringify({ conversation_id: conversationId, voice_command: utterance }),
    ),
  );

describe('races on one conversation', () => {
  it(`${PARALLEL} parallel voice/commands: each a 200 or a 409, nothing lost, the history valid, the conversation usable`, async () => {
    // Prepare
    await startTimerConversation(handlers().invoke, 'race');
    handlers().llm.enqueue(
      ...Array.from({ length: PARALLEL + 1 }, (_, index) => ({
        reply: { content: `Answer ${index}.` },
      })),
    );

    // Act
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, index) => command('race', `utterance ${index}`)),
    );

    // Assess
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    expect(statuses).toContain(200);
    for (const response of responses.filter((candidate) => candidate.statusCode === 409)) {
      expect(JSON.parse(response.body).error.code).toBe('conversation_conflict');
      expect(response.headers?.['Retry-After']).toBe('1');
    }
    const store = new DynamoDbConversationStore({
      client: handlers().database.client,
      tableName: handlers().database.tableName,
      clock: systemClock,
    });
    const stored = await store.load('fuzz-node', 'race');
    const winners = responses.filter((response) => response.statusCode === 200).length;
    expect(stored?.messages.filter((message) => message.role === 'user')).toHaveLength(winners);
    assertValidHistory(stored?.messages ?? []);
    expect(handlers().llm.protocolViolations).toEqual([]);

    handlers().llm.reset();
    handlers().llm.enqueue({ reply: { content: 'Still here.' } });
    const after = await command('race', 'are you there?');
    expect(after.statusCode).toBe(200);
  }, 60_000);
});
