import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { DynamoDbConversationStore } from '../../shared/adapters/dynamodb';
import { systemClock } from '../../shared/adapters/system/system-clock';
import type { ConversationRecord } from '../../shared/ports/conversation-store';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { useScriptedLlmServer } from '../support/use-scripted-llm-server';
import { eventFor, type Invoke, type RoutePath, realHandlers } from './handler-harness';
import { type RestartableDynalite, startRestartableDynalite } from './storage-outage-database';
import {
  COMMAND,
  PENDING_CALL_ID,
  registration,
  START,
  validBody,
} from './storage-outage-fixtures';
import { type FaultProxy, startFaultProxy } from './storage-outage-proxy';

/** The node `realHandlers` registers; its key is what `eventFor` sends by default. */
export const NODE_ID = 'fuzz-node';

type Send = (
  path: RoutePath,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
) => Promise<APIGatewayProxyResult>;

export interface OutageHarness {
  readonly llm: ScriptedLlmServer;
  /** The database the handlers use; stop and start it at will (restarted after each test). */
  database(): RestartableDynalite;
  /** Stands between the handlers of `send` and the scripted model. */
  modelProxy(): FaultProxy;
  /** Stands between the handlers of `sendThroughDatabaseProxy` and the database. */
  databaseProxy(): FaultProxy;
  /** The real handlers of one warm container, reaching the model through `modelProxy`. */
  readonly send: Send;
  /** The real handlers of another container, reaching the database through `databaseProxy`. */
  readonly sendThroughDatabaseProxy: Send;
  /** A new conversation of `NODE_ID` whose call `PENDING_CALL_ID` is open; the model's log is cleared. */
  pendingConversation(label: string): Promise<string>;
  storedRecord(conversationId: string): Promise<ConversationRecord>;
  /** The valid request of `path` again, with the database back: it answers 200. */
  expectNextRequestWorks(path: RoutePath, conversationId: string): Promise<void>;
}

interface Running {
  readonly database: RestartableDynalite;
  readonly modelProxy: FaultProxy;
  readonly databaseProxy: FaultProxy;
  readonly invoke: Invoke;
  readonly invokeThroughDatabaseProxy: Invoke;
  readonly store: DynamoDbConversationStore;
}

/**
 * The real handlers on a restartable dynalite and the scripted model, for the tests of the
 * calling file: started before them, the database restarted after each, all stopped after them.
 */
export function useOutageHarness(): OutageHarness {
  const llm = useScriptedLlmServer();
  let running: Running | undefined;
  beforeAll(async () => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    const database = await startRestartableDynalite();
    const [modelProxy, databaseProxy] = await Promise.all([
      startFaultProxy(llm.baseURL),
      startFaultProxy(database.endpoint),
    ]);
    const { client, tableName } = database;
    running = {
      database,
      modelProxy,
      databaseProxy,
      invoke: await realHandlers(database, modelProxy.baseURL),
      invokeThroughDatabaseProxy: await realHandlers(
        { ...database, endpoint: databaseProxy.baseURL },
        llm.baseURL,
      ),
      store: new DynamoDbConversationStore({ client, tableName, clock: systemClock }),
    };
  });
  // A test that failed with the database stopped must not take the next test's database with it.
  afterEach(() => running?.database.start());
  afterAll(async () => {
    await Promise.all([
      running?.database.close(),
      running?.modelProxy.close(),
      running?.databaseProxy.close(),
    ]);
  });
  const current = (): Running => {
    if (running === undefined) throw new Error('useOutageHarness: it runs only inside tests');
    return running;
  };

  const send: Send = (path, body, headers) =>
    current().invoke(path, eventFor(path, JSON.stringify(body), headers));
  const storedRecord = async (conversationId: string): Promise<ConversationRecord> => {
    const record = await current().store.load(NODE_ID, conversationId);
    if (record === null) throw new Error(`conversation ${conversationId} is not stored`);
    return record;
  };
  return {
    llm,
    database: () => current().database,
    modelProxy: () => current().modelProxy,
    databaseProxy: () => current().databaseProxy,
    send,
    sendThroughDatabaseProxy: (path, body, headers) =>
      current().invokeThroughDatabaseProxy(path, eventFor(path, JSON.stringify(body), headers)),
    storedRecord,
    pendingConversation: async (label) => {
      const conversationId = `${label}-${randomUUID()}`;
      expect((await send(START, registration(conversationId))).statusCode).toBe(200);
      const timerArguments = JSON.stringify({ duration_seconds: 300 });
      llm.enqueue({
        reply: {
          tool_calls: [{ id: PENDING_CALL_ID, name: 'set_timer', arguments: timerArguments }],
        },
      });
      const body = { conversation_id: conversationId, voice_command: 'five minute timer' };
      expect(JSON.parse((await send(COMMAND, body)).body).stop_reason).toBe('tool_calls');
      llm.reset();
      return conversationId;
    },
    expectNextRequestWorks: async (path, conversationId) => {
      llm.reset();
      if (path !== START) llm.enqueue({ reply: { content: 'All done.' } });
      const response = await send(path, validBody(path, conversationId));
      expect(response.statusCode).toBe(200);
      const body = JSON.parse(response.body);
      expect(path === START ? body.status : body.stop_reason).toBe(
        path === START ? 'success' : 'complete',
      );
      expect(llm.protocolViolations).toEqual([]);
    },
  };
}
