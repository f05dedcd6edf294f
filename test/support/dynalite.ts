import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startEmbeddedDynamoDb } from '../../infra/local/embedded-dynamodb';
import { createDynamoDbClient, type DynamoDbClient } from '../../shared/adapters/dynamodb/client';
import { createTableIfMissing } from '../../shared/adapters/dynamodb/table';

export interface RunningDynalite {
  readonly endpoint: string;
  /** A client from `createDynamoDbClient`, as production builds it. */
  readonly client: DynamoDbClient;
  /** A table created for this call alone, ACTIVE. */
  readonly tableName: string;
  /** Destroys the client and stops the server; safe to call twice. */
  close(): Promise<void>;
}

export const DYNALITE_REGION = 'us-east-1';

/**
 * Starts dynalite in this process on 127.0.0.1 (a free port), in memory unless `path` names a
 * LevelDB directory, and creates a uniquely named table in it.
 */
export async function startDynalite(options: { path?: string } = {}): Promise<RunningDynalite> {
  const database = await startEmbeddedDynamoDb({ port: 0, ...options });
  const { endpoint } = database;
  const client = createDynamoDbClient({ region: DYNALITE_REGION, endpoint });
  const tableName = `jcc-test-${randomUUID()}`;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    client.destroy();
    closed ??= database.close();
    return closed;
  };
  try {
    await createTableIfMissing(client, tableName, { pollIntervalMs: 10 });
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoint, client, tableName, close };
}

/**
 * Starts dynalite before the tests of the calling file (or `describe`) and stops it after them;
 * the returned function gives the running instance inside a test.
 */
export function useDynalite(options: { path?: string } = {}): () => RunningDynalite {
  let running: RunningDynalite | undefined;
  beforeAll(async () => {
    running = await startDynalite(options);
  });
  afterAll(async () => {
    await running?.close();
  });
  return () => {
    if (running === undefined) throw new Error('useDynalite: dynalite runs only inside tests');
    return running;
  };
}
