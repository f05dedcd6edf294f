import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbConversationStore } from '../../shared/adapters/dynamodb';
import { systemClock } from '../../shared/adapters/system/system-clock';
import { type RunningDynalite, startDynalite } from '../support/dynalite';
import { assertValidHistory } from '../support/engine-fixtures';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../support/scripted-llm-server';
import { eventFor, type Invoke, realHandlers, startTimerConversation } from './handler-harness';

const PARALLEL = 20;
let database: RunningDynalite;
let llm: ScriptedLlmServer;
let invoke: Invoke;

beforeAll(async () => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  [database, llm] = await Promise.all([startDynalite(), startScriptedLlmServer()]);
  invoke = await realHandlers(database, llm.baseURL);
});
afterAll(async () => {
  await Promise.all([database?.close(), llm?.close()]);
});

const command = (conversationId: string, utterance: string) =>
  invoke(
    '/api/v0/voice/command',
    eventFor(
      '/api/v0/voice/command',
      JSON.stringify({ conversation_id: conversationId, voice_command: utterance }),
    ),
  );

describe('races on one conversation', () => {
  it(`${PARALLEL} parallel voice/commands: each a 200 or a 409, nothing lost, the history valid, the conversation usable`, async () => {
    // Prepare
    await startTimerConversation(invoke, 'race');
    llm.enqueue(
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
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(statuses).toContain(200);
    for (const response of responses.filter((candidate) => candidate.statusCode === 409)) {
      expect(JSON.parse(response.body).error.code).toBe('conversation_conflict');
      expect(response.headers?.['Retry-After']).toBe('1');
    }
    const store = new DynamoDbConversationStore({
      client: database.client,
      tableName: database.tableName,
      clock: systemClock,
    });
    const stored = await store.load('fuzz-node', 'race');
    const winners = responses.filter((response) => response.statusCode === 200).length;
    expect(stored?.messages.filter((message) => message.role === 'user')).toHaveLength(winners);
    assertValidHistory(stored?.messages ?? []);
    expect(llm.protocolViolations).toEqual([]);

    llm.reset();
    llm.enqueue({ reply: { content: 'Still here.' } });
    const after = await command('race', 'are you there?');
    expect(after.statusCode).toBe(200);
  }, 60_000);
});
