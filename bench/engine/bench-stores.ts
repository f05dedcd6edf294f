import { randomUUID } from 'node:crypto';
import { startEmbeddedDynamoDb } from '../../infra/local/embedded-dynamodb';
import { createDynamoDbClient } from '../../shared/adapters/dynamodb/client';
import { DynamoDbConversationStore } from '../../shared/adapters/dynamodb/conversation-store';
import { createTableIfMissing } from '../../shared/adapters/dynamodb/table';
import type { Clock } from '../../shared/ports/clock';
import {
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
} from '../../shared/ports/conversation-store';

export interface BenchStore {
  readonly store: ConversationStore;
  close(): Promise<void>;
}

/**
 * The production DynamoDB adapter on dynalite in this process (in memory, a fresh table), as the
 * tests and `npm start` run it. Real AWS adds a network round trip per request that this leaves out,
 * and dynalite takes CPU from the same cores as the engine, which this keeps in.
 */
export async function startDynaliteStore(clock: Clock): Promise<BenchStore> {
  const database = await startEmbeddedDynamoDb({ port: 0 });
  const client = createDynamoDbClient({ region: 'us-east-1', endpoint: database.endpoint });
  const tableName = `jcc-bench-${randomUUID()}`;
  const close = async (): Promise<void> => {
    client.destroy();
    await database.close();
  };
  try {
    await createTableIfMissing(client, tableName, { pollIntervalMs: 10 });
  } catch (error) {
    await close();
    throw error;
  }
  return { store: new DynamoDbConversationStore({ client, tableName, clock }), close };
}

/**
 * A map with the store's contract (version check included): a turn on it costs only the engine,
 * so the difference to the dynalite figures is what storage costs.
 */
export class InMemoryConversationStore implements ConversationStore {
  readonly #records = new Map<string, ConversationRecord>();

  load(nodeId: string, conversationId: string): Promise<ConversationRecord | null> {
    return Promise.resolve(this.#records.get(recordKey(nodeId, conversationId)) ?? null);
  }

  replace(record: ConversationRecord): Promise<void> {
    this.#records.set(recordKey(record.nodeId, record.conversationId), record);
    return Promise.resolve();
  }

  save(record: ConversationRecord, expectedVersion: number): Promise<void> {
    const key = recordKey(record.nodeId, record.conversationId);
    if (this.#records.get(key)?.version !== expectedVersion) {
      return Promise.reject(
        new ConversationConflictError(record.nodeId, record.conversationId, expectedVersion),
      );
    }
    this.#records.set(key, record);
    return Promise.resolve();
  }
}

const recordKey = (nodeId: string, conversationId: string): string =>
  `${nodeId}\u0000${conversationId}`;
