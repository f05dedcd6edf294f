import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDynamoDbClient,
  DynamoDbConversationStore,
  DynamoDbNodeRegistry,
} from '../../../shared/adapters/dynamodb';
import { StorageUnavailableError } from '../../../shared/ports/conversation-store';
import { DYNALITE_REGION, startDynalite } from '../../support/dynalite';
import { listenOnFreePort } from '../../support/free-port';
import { conversationRecord, MovableClock } from './conversation-fixtures';

/** Far below the 20 s default: an unreachable database must fail a request in a few seconds. */
const FEW_SECONDS_MS = 5_000;

type Operation = (options: { endpoint: string; tableName: string }) => Promise<unknown>;

const operations: { name: string; run: Operation; requestTimeoutMs?: number }[] = [
  {
    name: 'conversation load',
    run: ({ endpoint, tableName }) => storeAt(endpoint, tableName).load('node', 'c'),
  },
  {
    name: 'conversation replace',
    run: ({ endpoint, tableName }) => storeAt(endpoint, tableName).replace(conversationRecord()),
  },
  {
    name: 'conversation save',
    run: ({ endpoint, tableName }) => storeAt(endpoint, tableName).save(conversationRecord(), 1),
  },
  {
    name: 'node find',
    run: ({ endpoint, tableName }) =>
      new DynamoDbNodeRegistry({ client: clientAt(endpoint), tableName }).find('node'),
  },
];

function clientAt(
  endpoint: string,
  overrides: { requestTimeoutMs?: number; maxAttempts?: number } = {},
) {
  return createDynamoDbClient({ region: DYNALITE_REGION, endpoint, ...overrides });
}

function storeAt(endpoint: string, tableName: string): DynamoDbConversationStore {
  return new DynamoDbConversationStore({
    client: clientAt(endpoint),
    tableName,
    clock: new MovableClock(),
  });
}

describe('DynamoDB adapters when dynalite has been closed', () => {
  it.each(operations)(
    '$name throws StorageUnavailableError with the connection error as cause',
    async ({ run }) => {
      const dynalite = await startDynalite();
      await dynalite.close();

      const running = run({ endpoint: dynalite.endpoint, tableName: dynalite.tableName });

      await expect(running).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(running).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    },
    FEW_SECONDS_MS,
  );
});

describe('DynamoDB client against a server that accepts but never answers', () => {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });

  it(
    'gives up after its request timeout instead of waiting forever',
    async () => {
      server = createServer((socket) => sockets.add(socket));
      const port = await listenOnFreePort(server);
      const client = clientAt(`http://127.0.0.1:${port}`, {
        requestTimeoutMs: 200,
        maxAttempts: 2,
      });
      const store = new DynamoDbConversationStore({
        client,
        tableName: 't',
        clock: new MovableClock(),
      });

      const loading = store.load('node', 'conversation');

      await expect(loading).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(loading).rejects.toMatchObject({ cause: { name: 'TimeoutError' } });
      client.destroy();
    },
    FEW_SECONDS_MS,
  );
});
