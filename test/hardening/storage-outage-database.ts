import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../infra/local/embedded-dynamodb';
import { createDynamoDbClient } from '../../shared/adapters/dynamodb/client';
import { createTableIfMissing } from '../../shared/adapters/dynamodb/table';
import { DYNALITE_REGION, type RunningDynalite } from '../support/dynalite';

/** A database that can go away and come back with its data, as a real outage does. */
export interface RestartableDynalite extends RunningDynalite {
  /** Stops the server: new connections are refused, open ones are cut. Idempotent. */
  stop(): Promise<void>;
  /** Starts it again on the same port and the same LevelDB files. Idempotent. */
  start(): Promise<void>;
}

/**
 * dynalite on LevelDB files in a fresh temporary directory, with one table. The first start picks
 * a free port; every restart takes that port again, so clients built on `endpoint` (the handlers'
 * own) reconnect without being rebuilt. `close` also deletes the files.
 */
export async function startRestartableDynalite(): Promise<RestartableDynalite> {
  const path = await mkdtemp(join(tmpdir(), 'jcc-outage-'));
  let server: EmbeddedDynamoDb | null = await startEmbeddedDynamoDb({ port: 0, path });
  const { endpoint, port } = server;
  const client = createDynamoDbClient({ region: DYNALITE_REGION, endpoint });
  const tableName = `jcc-outage-${randomUUID()}`;

  const stop = async (): Promise<void> => {
    const running = server;
    server = null;
    await running?.close();
  };
  const start = async (): Promise<void> => {
    server ??= await startEmbeddedDynamoDb({ port, path });
  };
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      client.destroy();
      await stop();
      await rm(path, { recursive: true, force: true });
    })();
    return closed;
  };

  try {
    await createTableIfMissing(client, tableName, { pollIntervalMs: 10 });
  } catch (error) {
    await close();
    throw error;
  }
  return { endpoint, client, tableName, close, stop, start };
}
