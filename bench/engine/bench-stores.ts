import { randomUUID } from 'node:crypto';
import { startEmbeddedDynamoDb } from '../../infra/local/embedded-dynamodb';
import { createDynamoDbClient } from '../../shared/adapters/dynamodb/client';
import { DynamoDbConversationStore } from '../../shared/adapters/dynamodb/conversation-store';
import { DynamoDbRequestLocks } from '../../shared/adapters/dynamodb/request-locks';
import { createTableIfMissing } from '../../shared/adapters/dynamodb/table';
import type { Clock } from '../../shared/ports/clock';
import {
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
} from '../../shared/ports/conversation-store';
import type { ClaimResult, RequestClaim, RequestLocks } from '../../shared/ports/request-locks';

export interface BenchStore {
  readonly store: ConversationStore;
  readonly requestLocks: RequestLocks;
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
    requestLocks: new DynamoDbRequestLocks({ client, tableName, clock }),
    close,
  };
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

/** Claims in a map, with the adapter's contract (a lapsed claim can be taken over). */
export class InMemoryRequestLocks implements RequestLocks {
  readonly #claims = new Map<string, RequestClaim & { readonly token: string }>();

  acquire(claim: RequestClaim): Promise<ClaimResult> {
    const key = claimKey(claim);
    const held = this.#claims.get(key);
    if (held !== undefined && held.heldUntil >= Date.now()) {
      return Promise.resolve({ acquired: false, fingerprint: held.fingerprint });
    }
    const token = randomUUID();
    this.#claims.set(key, { ...claim, token });
    return Promise.resolve({ acquired: true, token });
  }

  release(claim: RequestClaim, token: string): Promise<void> {
    const key = claimKey(claim);
    if (this.#claims.get(key)?.token === token) this.#claims.delete(key);
    return Promise.resolve();
  }
}

const claimKey = (claim: RequestClaim): string =>
  [claim.nodeId, claim.conversationId, claim.requestId].join('\u0000');

const recordKey = (nodeId: string, conversationId: string): string =>
  `${nodeId}\u0000${conversationId}`;
