import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../shared/adapters/node-key';
import {
  answeredWithinBound,
  COMMAND,
  CONTINUE,
  expectStorageUnavailable,
  registration,
  START,
  validBody,
} from './storage-outage-fixtures';
import { NODE_ID, useOutageHarness } from './storage-outage-harness';

const TEST_TIMEOUT_MS = 60_000;
const harness = useOutageHarness();
const { llm, send } = harness;

describe('DynamoDB stopped before the request', () => {
  it.each([START, COMMAND, CONTINUE])(
    '%s answers 503 storage_unavailable without calling the model; after the restart the conversation is as before and the request works',
    async (path) => {
      // Prepare
      const conversationId = await harness.pendingConversation('down-before');
      const before = await harness.storedRecord(conversationId);
      await harness.database().stop();

      // Act
      const response = await answeredWithinBound(send(path, validBody(path, conversationId)));

      // Assess
      expectStorageUnavailable(response);
      expect(llm.requests).toEqual([]);
      await harness.database().start();
      expect(await harness.storedRecord(conversationId)).toEqual(before);
      await harness.expectNextRequestWorks(path, conversationId);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('DynamoDB stopped during a turn, while the model is thinking', () => {
  it.each([COMMAND, CONTINUE])(
    '%s: the model answers after the stop, the save fails, 503; after the restart the conversation is as before (never half-written) and the request works',
    async (path) => {
      // Prepare
      const conversationId = await harness.pendingConversation('down-during');
      const before = await harness.storedRecord(conversationId);
      const held = harness.modelProxy().holdNextReply();
      llm.enqueue({ reply: { content: 'Done.' } });

      // Act
      const answer = send(path, validBody(path, conversationId));
      const first = await Promise.race([
        held.arrived.then(() => 'model replied' as const),
        answer.then(() => 'handler answered' as const),
      ]);
      await harness.database().stop();
      held.release();
      const response = await answeredWithinBound(answer);

      // Assess
      expect(first).toBe('model replied');
      expectStorageUnavailable(response);
      expect(llm.requests).toHaveLength(1);
      await harness.database().start();
      expect(await harness.storedRecord(conversationId)).toEqual(before);
      if (path === CONTINUE) {
        // The turn's claim on the conversation could not be released while the database was
        // down: until it lapses (the turn's deadline and 30 s) the same results are told to
        // retry, never run a second time; a new utterance works at once (and its save ends it).
        const resent = await send(path, validBody(path, conversationId));
        expect(resent.statusCode).toBe(409);
        expect(JSON.parse(resent.body).error.code).toBe('request_in_progress');
        expect(resent.headers?.['Retry-After']).toBe('1');
        await harness.expectNextRequestWorks(COMMAND, conversationId);
      } else {
        await harness.expectNextRequestWorks(path, conversationId);
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe('authentication while DynamoDB is stopped (registry answers are cached per container)', () => {
  it(
    'a node this container already authenticated is checked against its cached key hash: its right key gets past auth to a 503 from the store, a wrong key is still a 401',
    async () => {
      // Prepare
      const conversationId = await harness.pendingConversation('cached-node');
      const body = validBody(COMMAND, conversationId);
      const wrongKey = { 'content-type': 'application/json', 'x-api-key': `${NODE_ID}:wrong` };
      await harness.database().stop();

      // Act
      const withRightKey = await answeredWithinBound(send(COMMAND, body));
      const withWrongKey = await answeredWithinBound(send(COMMAND, body, wrongKey));

      // Assess
      expectStorageUnavailable(withRightKey);
      expect(withWrongKey.statusCode).toBe(401);
      expect(JSON.parse(withWrongKey.body).error.code).toBe('unauthorized');
      expect(llm.requests).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a node this container has not seen yet gets 503 storage_unavailable, not 401; the failed lookup is not cached, so it gets in once the database is back',
    async () => {
      // Prepare
      const nodeId = `cold-${randomUUID()}`;
      await new DynamoDbNodeRegistry(harness.database()).put({
        nodeId,
        keyHash: hashNodeKey('cold-key'),
        timezone: 'Europe/Berlin',
        room: null,
        name: 'cold',
        enabled: true,
      });
      const headers = { 'content-type': 'application/json', 'x-api-key': `${nodeId}:cold-key` };
      const body = registration(`cold-${randomUUID()}`);
      await harness.database().stop();

      // Act
      const during = await answeredWithinBound(send(START, body, headers));
      await harness.database().start();
      const after = await send(START, body, headers);

      // Assess
      expectStorageUnavailable(during);
      expect(after.statusCode).toBe(200);
      expect(JSON.parse(after.body).timezone).toBe('Europe/Berlin');
    },
    TEST_TIMEOUT_MS,
  );
});

describe('the answer to the save lost on its way back (the write landed, the connection dropped)', () => {
  it.each([COMMAND, CONTINUE])(
    '%s: the status agrees with what is stored (200 when the turn was saved, an error only when nothing was)',
    async (path) => {
      // Prepare
      const conversationId = await harness.pendingConversation('lost-answer');
      const before = await harness.storedRecord(conversationId);
      llm.enqueue({ reply: { content: 'Done.' } });
      let saveDropped = false;
      void harness
        .databaseProxy()
        .dropNextReply((headers) => /\.(PutItem|UpdateItem)$/.test(`${headers['x-amz-target']}`))
        .then(() => {
          saveDropped = true;
        });

      // Act
      const response = await answeredWithinBound(
        harness.sendThroughDatabaseProxy(path, validBody(path, conversationId)),
      );

      // Assess
      expect(saveDropped).toBe(true);
      const after = await harness.storedRecord(conversationId);
      const answered =
        response.statusCode === 200
          ? 'turn saved'
          : `nothing saved (answered ${response.statusCode} ${response.body})`;
      const stored = after.version === before.version ? 'nothing saved' : 'turn saved';
      expect(answered).toBe(stored);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('the answer to a request-id claim lost on its way back', () => {
  it.each([COMMAND, CONTINUE])(
    '%s with a request_id: the claim that landed is recognized as ours, the turn runs, its retry replays',
    async (path) => {
      // Prepare: the first PutItem of the request is the claim (the save comes after the model).
      const conversationId = await harness.pendingConversation('lost-claim');
      llm.enqueue({ reply: { content: 'Done.' } });
      let claimDropped = false;
      void harness
        .databaseProxy()
        .dropNextReply((headers) => /\.PutItem$/.test(`${headers['x-amz-target']}`))
        .then(() => {
          claimDropped = true;
        });
      const body = { ...validBody(path, conversationId), request_id: 'lost-claim-1' };

      // Act
      const first = await answeredWithinBound(harness.sendThroughDatabaseProxy(path, body));
      const retry = await harness.send(path, body);

      // Assess
      expect(claimDropped).toBe(true);
      expect(first.statusCode, first.body).toBe(200);
      expect(retry.statusCode).toBe(200);
      expect(retry.body).toBe(first.body);
      expect(retry.headers?.['Idempotent-Replayed']).toBe('true');
      expect(
        llm.requests.filter((request) => request.path.endsWith('/chat/completions')),
      ).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );
});
