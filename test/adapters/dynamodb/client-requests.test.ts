import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import {
  ConditionalCheckFailedException,
  GetItemCommand,
  ThrottlingException,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDynamoDbClient, type DynamoDbClient } from '../../../shared/adapters/dynamodb';
import type { DynamoDbClientOptions } from '../../../shared/adapters/dynamodb/client';
import { countingDynamoDbClient } from '../../support/counting-dynamodb-client';
import { FakeTiming } from '../../support/fake-timing';
import {
  errorReply,
  itemReply,
  ScriptedDynamoDb,
  type ScriptedReply,
} from '../../support/scripted-dynamodb';
import { signatureProblem } from '../../support/sigv4-verifier';

/** Far above what any case needs (three attempts, backoff included): a hang fails the test. */
const CASE_TIMEOUT_MS = 10_000;
const REGION = 'us-east-1';

const item = (bytes: Uint8Array): ScriptedReply =>
  itemReply({ pk: { S: 'NODE#n' }, data: { B: Buffer.from(bytes).toString('base64') } });
const failure = (status: number, type: string): ScriptedReply => errorReply(status, type);

/**
 * Both clients createDynamoDbClient gives: ours (its backoff on a fake clock, so no case waits
 * for it) and the AWS SDK's (for a set-up without credentials in the environment).
 */
const IMPLEMENTATIONS = [
  { implementation: 'json', timing: () => ({ timing: new FakeTiming() }) },
  { implementation: 'sdk', timing: () => ({}) },
] as const;

const getItem = () =>
  new GetItemCommand({ TableName: 't', Key: { pk: { S: 'NODE#n' }, sk: { S: 'NODE' } } });

describe.each(IMPLEMENTATIONS)(
  'createDynamoDbClient ($implementation) against a scripted DynamoDB endpoint',
  ({ implementation, timing }) => {
    const endpoint = new ScriptedDynamoDb();
    beforeAll(() => endpoint.listen());
    afterAll(() => endpoint.close());
    const clientOf = (options: Partial<DynamoDbClientOptions> = {}): DynamoDbClient =>
      createDynamoDbClient({
        region: REGION,
        endpoint: endpoint.endpoint,
        implementation,
        ...timing(),
        ...options,
      });
    let client: DynamoDbClient;
    beforeEach(() => {
      client?.destroy();
      client = clientOf();
    });

    it('sends a SigV4-signed JSON request and decodes a binary attribute of the reply', async () => {
      const bytes = Uint8Array.from({ length: 5_000 }, (_, index) => (index * 7) % 256);
      endpoint.script(item(bytes));

      const output = await client.send(getItem());

      expect(Buffer.from(output.Item?.data?.B ?? [])).toEqual(Buffer.from(bytes));
      const [request] = endpoint.received;
      expect(request?.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
      expect(JSON.parse(request?.body ?? '')).toMatchObject({ TableName: 't' });
      const signer = {
        region: REGION,
        service: 'dynamodb',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      };
      expect(request && signatureProblem(request, signer)).toBeNull();
    });

    it('reads a reply that arrives in many pieces', async () => {
      const bytes = Uint8Array.from({ length: 300_000 }, (_, index) => (index * 13) % 256);
      endpoint.script({ ...(item(bytes) as ScriptedReply & { kind: 'json' }), chunks: 40 });

      const output = await client.send(getItem());

      expect(Buffer.from(output.Item?.data?.B ?? [])).toEqual(Buffer.from(bytes));
    });

    it(
      'retries a 5xx reply and a dropped connection, then answers',
      async () => {
        endpoint.script(
          failure(500, 'InternalServerError'),
          { kind: 'reset' },
          item(new Uint8Array([1])),
        );

        const output = await client.send(getItem());

        expect(output.Item?.pk?.S).toBe('NODE#n');
        expect(endpoint.received).toHaveLength(3);
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'retries throttling at most three attempts in all, then throws the typed error',
      async () => {
        endpoint.script(
          failure(400, 'ProvisionedThroughputExceededException'),
          failure(400, 'ThrottlingException'),
          failure(400, 'ThrottlingException'),
          item(new Uint8Array([1])),
        );

        const sending = client.send(getItem());

        await expect(sending).rejects.toBeInstanceOf(ThrottlingException);
        expect(endpoint.received).toHaveLength(3);
      },
      CASE_TIMEOUT_MS,
    );

    it('throws a failed condition as ConditionalCheckFailedException, without a retry', async () => {
      endpoint.script(failure(400, 'ConditionalCheckFailedException'));

      const sending = client.send(getItem());

      await expect(sending).rejects.toBeInstanceOf(ConditionalCheckFailedException);
      await expect(sending).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
      expect(endpoint.received).toHaveLength(1);
    });

    it(
      'gives up on an unanswered attempt after the request timeout and retries it',
      async () => {
        const impatient = clientOf({ requestTimeoutMs: 200 });
        endpoint.script({ kind: 'hang' }, item(new Uint8Array([2])));

        const output = await impatient.send(getItem());

        expect(output.Item?.pk?.S).toBe('NODE#n');
        expect(endpoint.received).toHaveLength(2);
        impatient.destroy();
      },
      CASE_TIMEOUT_MS,
    );

    it('stops at once, closing the connection, without a retry, when the caller aborts', async () => {
      endpoint.script({ kind: 'hang' });
      const controller = new AbortController();

      const failing = client
        .send(getItem(), { abortSignal: controller.signal })
        .catch((error: unknown) => error);
      await expect.poll(() => endpoint.received.length).toBe(1);
      controller.abort();

      // Long before the request timeout (three seconds) would close it.
      await expect.poll(() => endpoint.abandoned, { timeout: 1_000 }).toBe(1);
      expect(await failing).toMatchObject({ name: 'AbortError' });
      expect(endpoint.received).toHaveLength(1);
    });

    it(
      'is counted once per attempt by the counting client the tests use',
      async () => {
        const counting = countingDynamoDbClient(endpoint.endpoint, { implementation, ...timing() });
        endpoint.script(failure(503, 'ServiceUnavailable'), item(new Uint8Array([3])));

        await counting.client.send(getItem());

        expect(counting.take()).toEqual([
          { operation: 'GetItem', key: 'NODE#n NODE' },
          { operation: 'GetItem', key: 'NODE#n NODE' },
        ]);
        expect(counting.takeMilliseconds()).toBeGreaterThan(0);
        counting.client.destroy();
      },
      CASE_TIMEOUT_MS,
    );
  },
);

/**
 * A port whose connections are never accepted: a process listens with the shortest backlog, then
 * blocks (30 s at most, so it cannot outlive a failed test for long), so once two connections fill
 * the queue the kernel drops every further SYN and a connect hangs (Linux).
 */
async function portThatNeverAccepts(): Promise<{ port: number; close(): void }> {
  const listener = spawn(
    process.execPath,
    [
      '-e',
      `const server = require('node:net').createServer();
       server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
         process.stdout.write(server.address().port + '\\n', () => {
           Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000);
           process.exit(0);
         });
       });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve) => {
    listener.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
  });
  const fillers = [0, 1].map(() => connect(port, '127.0.0.1'));
  await Promise.all(
    fillers.map((filler) => new Promise((resolve) => filler.once('connect', resolve))),
  );
  return {
    port,
    close: () => {
      for (const filler of fillers) filler.destroy();
      listener.kill();
    },
  };
}

describe.each(IMPLEMENTATIONS)(
  'createDynamoDbClient ($implementation) against a server that never accepts the connection',
  ({ implementation, timing }) => {
    it(
      'gives up on each attempt after the connection timeout, long before the request timeout',
      async () => {
        const unaccepting = await portThatNeverAccepts();
        const client = createDynamoDbClient({
          region: REGION,
          endpoint: `http://127.0.0.1:${unaccepting.port}`,
          connectionTimeoutMs: 100,
          requestTimeoutMs: 60_000,
          maxAttempts: 2,
          implementation,
          ...timing(),
        });
        try {
          await expect(client.send(getItem())).rejects.toMatchObject({
            name: 'TimeoutError',
            message: expect.stringContaining('no connection'),
          });
        } finally {
          client.destroy();
          unaccepting.close();
        }
      },
      CASE_TIMEOUT_MS,
    );
  },
);
