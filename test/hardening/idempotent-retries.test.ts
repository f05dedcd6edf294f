import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbConversationStore } from '../../shared/adapters/dynamodb';
import { systemClock } from '../../shared/adapters/system/system-clock';
import { assertValidHistory } from '../support/engine-fixtures';
import { eventFor, startTimerConversation, useRealHandlers } from './handler-harness';

const PARALLEL = 20;
const HEADERS = { 'content-type': 'application/json', 'x-api-key': 'fuzz-node:fuzz-key' };
const handlers = useRealHandlers();
let conversation = 0;

beforeEach(() => handlers().llm.reset());

const modelCalls = () =>
  handlers().llm.requests.filter((request) => request.path.endsWith('/chat/completions')).length;

async function startConversation(): Promise<string> {
  conversation += 1;
  const conversationId = `idempotent-${conversation}`;
  await startTimerConversation(handlers().invoke, conversationId);
  return conversationId;
}

function command(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const path = '/api/v0/voice/command';
  return handlers().invoke(path, eventFor(path, JSON.stringify(body), { ...HEADERS, ...headers }));
}

const errorCode = (response: { body: string }) => JSON.parse(response.body).error.code;

describe('request ids through the real handlers', () => {
  it('a resent voice/command gets the same body, marked as a replay, from one model call', async () => {
    // Prepare
    const conversationId = await startConversation();
    const body = { conversation_id: conversationId, voice_command: 'hello', request_id: 'req-1' };
    handlers().llm.enqueue({ reply: { content: 'Hi there.' } });

    // Act
    const first = await command(body);
    const repeat = await command(body);

    // Assess
    expect([first.statusCode, repeat.statusCode]).toEqual([200, 200]);
    expect(repeat.body).toBe(first.body);
    expect(first.headers?.['Idempotent-Replayed']).toBeUndefined();
    expect(repeat.headers?.['Idempotent-Replayed']).toBe('true');
    expect(modelCalls()).toBe(1);
  });

  it('the Idempotency-Key header is the same id as a body request_id', async () => {
    const conversationId = await startConversation();
    const body = { conversation_id: conversationId, voice_command: 'hello' };
    handlers().llm.enqueue({ reply: { content: 'Hi there.' } });

    const first = await command(body, { 'idempotency-key': 'key-1' });
    const repeat = await command({ ...body, request_id: 'key-1' });

    expect(repeat.statusCode).toBe(200);
    expect(repeat.body).toBe(first.body);
    expect(modelCalls()).toBe(1);
  });

  it('the header as the Idempotency-Key draft writes it (a quoted string) is the id inside the quotes', async () => {
    const conversationId = await startConversation();
    const body = { conversation_id: conversationId, voice_command: 'hello' };
    handlers().llm.enqueue({ reply: { content: 'Hi there.' } });

    const first = await command(body, { 'idempotency-key': '"8e03978e-40d5-43e8"' });
    const repeat = await command({ ...body, request_id: '8e03978e-40d5-43e8' });
    const both = await command(
      { ...body, request_id: '8e03978e-40d5-43e8' },
      { 'idempotency-key': '"8e03978e-40d5-43e8"' },
    );

    expect(first.statusCode).toBe(200);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.body).toBe(first.body);
    expect(both.body).toBe(first.body);
    expect(modelCalls()).toBe(1);
  });

  it.each([
    { name: 'a header that differs from request_id', header: 'key-2', requestId: 'other' },
    { name: 'a quoted header with a blank inside', header: '"two words"', requestId: undefined },
    { name: 'a quoted header left open', header: '"key-3', requestId: undefined },
    { name: 'a header with spaces', header: 'two words', requestId: undefined },
    { name: 'a header longer than 128 characters', header: 'k'.repeat(129), requestId: undefined },
  ])('$name is a 400, before any model call', async ({ header, requestId }) => {
    const conversationId = await startConversation();

    const response = await command(
      { conversation_id: conversationId, voice_command: 'hello', request_id: requestId },
      { 'idempotency-key': header },
    );

    expect(response.statusCode).toBe(400);
    expect(errorCode(response)).toBe('invalid_request');
    expect(modelCalls()).toBe(0);
  });

  it('the same id with another utterance is a 422, and the conversation stays usable', async () => {
    const conversationId = await startConversation();
    handlers().llm.enqueue(
      { reply: { content: 'Lights on.' } },
      { reply: { content: 'Lights off.' } },
    );
    await command({ conversation_id: conversationId, voice_command: 'on', request_id: 'req-3' });

    const reused = await command({
      conversation_id: conversationId,
      voice_command: 'off',
      request_id: 'req-3',
    });
    const next = await command({ conversation_id: conversationId, voice_command: 'off' });

    expect(reused.statusCode).toBe(422);
    expect(errorCode(reused)).toBe('request_id_reused');
    expect(next.statusCode).toBe(200);
    expect(modelCalls()).toBe(2);
  });

  it.each(['stream-handoff:0123456789abcdef', 'Stream-Handoff:node-chose-this'])(
    'a request id the node chose, %s, replays after later turns as any other',
    async (requestId) => {
      // Prepare: the server derives ids of its own for continue/stream's records; a node's id that
      // looks like one is still the node's, kept until it is pushed out.
      const conversationId = await startConversation();
      handlers().llm.enqueue(
        { reply: { content: 'Lights on.' } },
        { reply: { content: 'It is noon.' } },
      );
      const body = {
        conversation_id: conversationId,
        voice_command: 'lights on',
        request_id: requestId,
      };
      const first = await command(body);
      await command({ conversation_id: conversationId, voice_command: 'what time is it' });

      // Act
      const resent = await command(body);

      // Assess
      expect(resent.statusCode, resent.body).toBe(200);
      expect(resent.body).toBe(first.body);
      expect(resent.headers?.['Idempotent-Replayed']).toBe('true');
      expect(modelCalls()).toBe(2);
    },
  );

  it(`${PARALLEL} copies of one request at once: one model call, each a 200 or a 409 to retry, one turn stored`, async () => {
    // Prepare: a slow model, so the copies overlap the first.
    const conversationId = await startConversation();
    const body = { conversation_id: conversationId, voice_command: 'timer', request_id: 'req-4' };
    handlers().llm.enqueue({ reply: { content: 'Which duration?' }, delayMs: 200 });

    // Act
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => command(body)));
    const later = await command(body);

    // Assess
    const answered = responses.filter((response) => response.statusCode === 200);
    const refused = responses.filter((response) => response.statusCode !== 200);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    for (const response of refused) {
      expect(response.statusCode).toBe(409);
      expect(errorCode(response)).toBe('request_in_progress');
      expect(response.headers?.['Retry-After']).toBe('1');
    }
    for (const response of [...answered, later]) expect(response.body).toBe(answered[0]?.body);
    expect(modelCalls()).toBe(1);
    const store = new DynamoDbConversationStore({
      client: handlers().database.client,
      tableName: handlers().database.tableName,
      clock: systemClock,
    });
    const stored = await store.load('fuzz-node', conversationId);
    expect(stored?.messages.filter((message) => message.role === 'user')).toHaveLength(1);
    assertValidHistory(stored?.messages ?? []);
  }, 60_000);
});
