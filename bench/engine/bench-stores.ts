import { randomUUID } from 'node:crypto';
import { startEmbeddedDynamoDb } from '../../infra/local/embedded-dynamodb';
import { createDynamoDbClient } from '../../shared/adapters/dynamodb/client';
import { DynamoDbConversationStore } from '../../shared/adapters/dynamodb/conversation-store';
import { createTableIfMissing } from '../../shared/adapters/dynamodb/table';
import type { Clock } from '../../shared/ports/clock';
import {
  type ClaimedConversation,
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
  type TurnClaim,
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
  return {
    store: new DynamoDbConversationStore({ client, tableName, clock }),
    close,
  };
}

/**
 * A map with the store's contract (version check included): a turn on it costs only the engine,
 * so the difference to the dynalite figures is what storage costs.
 */
export class InMemoryConversationStore implements ConversationStore {
  readonly #records = new Map<string, ConversationRecord>();
  readonly #claims = new Map<string, TurnClaim & { readonly token: string }>();

  load(nodeId: string, conversationId: string): Promise<ConversationRecord | null> {
    return Promise.resolve(this.#records.get(recordKey(nodeId, conversationId)) ?? null);
  }

  claim(nodeId: string, conversationId: string, claim: TurnClaim): Promise<ClaimedConversation> {
    const key = recordKey(nodeId, conversationId);
    const record = this.#records.get(key) ?? null;
    const held = this.#claims.get(key);
    if (record === null || (held !== undefined && held.heldUntil >= Date.now())) {
      const holder = held === undefined ? null : held;
      return Promise.resolve({ claimed: false, holder, record });
    }
    const token = randomUUID();
    this.#claims.set(key, { ...claim, token });
    return Promise.resolve({ claimed: true, token, record });
  }

  release(nodeId: string, conversationId: string, token: string): Promise<void> {
    const key = recordKey(nodeId, conversationId);
    if (this.#claims.get(key)?.token === token) this.#claims.delete(key);
    return Promise.resolve();
  }

  replace(record: ConversationRecord): Promise<void> {
    const key = recordKey(record.nodeId, record.conversationId);
    this.#records.set(key, record);
    this.#claims.delete(key);
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
    this.#claims.delete(key);
    return Promise.resolve();
  }
}

const recordKey = (nodeId: string, conversationId: string): string =>
  `${nodeId}\u0000${conversationId}`;
