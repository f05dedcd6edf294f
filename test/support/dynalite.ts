import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { createDynamoDbClient } from '../../shared/adapters/dynamodb/client';
import { createTableIfMissing } from '../../shared/adapters/dynamodb/table';

/** The part of dynalite's options these tests use (dynalite ships no types). */
interface DynaliteOptions {
  readonly path?: string;
  readonly createTableMs: number;
  readonly deleteTableMs: number;
  readonly updateTableMs: number;
}
type CreateDynalite = (options: DynaliteOptions) => Server;

// dynalite is CommonJS without type declarations; requiring it lets us give it the type above.
const createDynalite = createRequire(import.meta.url)('dynalite') as CreateDynalite;

export interface RunningDynalite {
  readonly endpoint: string;
  /** A client from `createDynamoDbClient`, as production builds it. */
  readonly client: DynamoDBClient;
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
  const server = createDynalite({
    ...(options.path === undefined ? {} : { path: options.path }),
    // Tables are ACTIVE at once instead of after dynalite's default half second.
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = createDynamoDbClient({ region: DYNALITE_REGION, endpoint });
  const tableName = `jcc-test-${randomUUID()}`;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= stop(server, client);
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

async function stop(server: Server, client: DynamoDBClient): Promise<void> {
  client.destroy();
  // Keep-alive sockets would otherwise hold server.close() open.
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
  });
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
