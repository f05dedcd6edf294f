import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBServiceException,
  GetItemCommand,
  InternalServerError,
  ItemCollectionSizeLimitExceededException,
  ProvisionedThroughputExceededException,
  PutItemCommand,
  QueryCommand,
  RequestLimitExceeded,
  ResourceNotFoundException,
  ScanCommand,
  ThrottlingException,
  TransactionConflictException,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedDynamoDb } from '../../../infra/local/embedded-dynamodb';
import {
  createDynamoDbClient,
  type DynamoDbClient,
  DynamoDbConversationStore,
} from '../../../shared/adapters/dynamodb';
import { BufferedHttpHandler } from '../../../shared/adapters/dynamodb/buffered-http-handler';
import { JsonDynamoDbClient } from '../../../shared/adapters/dynamodb/json-client';
import { DynamoDbReplyMalformedError } from '../../../shared/adapters/dynamodb/json-protocol';
import { StorageUnavailableError } from '../../../shared/ports/conversation-store';
import { DYNALITE_REGION, useDynalite } from '../../support/dynalite';
import { FIXED_NOW } from '../../support/engine-fixtures';
import { FakeTiming } from '../../support/fake-timing';
import { errorReply, itemReply, ScriptedDynamoDb } from '../../support/scripted-dynamodb';
import { signatureProblem, TEST_AWS_CREDENTIALS } from '../../support/sigv4-verifier';

const REGION = 'us-east-1';
const LOCAL_SIGNER = {
  region: REGION,
  service: 'dynamodb',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
};
const KEY = { pk: { S: 'NODE#n' }, sk: { S: 'NODE' } };
const getItem = () => new GetItemCommand({ TableName: 't', Key: KEY });
/** Every byte value, so a wrong base64 alphabet or a text decoding shows. */
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, index) => index);
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('JsonDynamoDbClient against a scripted DynamoDB endpoint', () => {
  const endpoint = new ScriptedDynamoDb();
  beforeAll(() => endpoint.listen());
  afterAll(() => endpoint.close());
  let timing: FakeTiming;
  let client: DynamoDbClient;
  beforeEach(() => {
    client?.destroy();
    timing = new FakeTiming({ randoms: [0.5, 0.25] });
    client = createDynamoDbClient({ region: REGION, endpoint: endpoint.endpoint, timing });
  });

  it('POSTs the operation as DynamoDB JSON, binary as base64, signed at the clock it is given', async () => {
    endpoint.script(itemReply({ data: { B: base64(ALL_BYTES) } }));

    await client.send(
      new PutItemCommand({
        TableName: 't',
        Item: { ...KEY, data: { B: ALL_BYTES }, zipped: { B: Buffer.from([1, 2]) } },
      }),
    );

    const [request] = endpoint.received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/');
    expect(request?.headers['x-amz-target']).toBe('DynamoDB_20120810.PutItem');
    expect(request?.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(request?.headers['x-amz-date']).toBe('20260116T150000Z');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      TableName: 't',
      Item: { ...KEY, data: { B: base64(ALL_BYTES) }, zipped: { B: 'AQI=' } },
    });
    expect(request && signatureProblem(request, LOCAL_SIGNER)).toBeNull();
  });

  it('signs with temporary credentials and their session token', async () => {
    const signed = new JsonDynamoDbClient({
      region: 'eu-west-1',
      endpoint: endpoint.endpoint,
      credentials: TEST_AWS_CREDENTIALS,
      requestHandler: new BufferedHttpHandler({
        connectionTimeoutMs: 1_000,
        requestTimeoutMs: 3_000,
      }),
      maxAttempts: 3,
      timing,
      sdkClient: () => {
        throw new Error('no SDK client in this test');
      },
    });
    endpoint.script(itemReply(KEY));

    await signed.send(getItem());

    const [request] = endpoint.received;
    const expected = {
      region: 'eu-west-1',
      service: 'dynamodb',
      credentials: TEST_AWS_CREDENTIALS,
    };
    expect(request && signatureProblem(request, expected)).toBeNull();
    expect(request && signatureProblem(request, { ...expected, region: REGION })).not.toBeNull();
    signed.destroy();
  });

  it('decodes binary attributes wherever they are in the reply, with $metadata as the SDK has it', async () => {
    endpoint.script({
      kind: 'json',
      status: 200,
      body: {
        Items: [
          {
            data: { B: base64(ALL_BYTES) },
            set: { BS: [base64(new Uint8Array([1])), base64(new Uint8Array([2]))] },
            nested: { M: { B: { L: [{ B: base64(new Uint8Array([9])) }, { S: 'B' }] } } },
          },
        ],
        Count: 1,
      },
    });

    const output = await client.send(
      new QueryCommand({
        TableName: 't',
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'NODE#n' } },
      }),
    );

    const [found] = output.Items ?? [];
    expect(found?.data?.B).toEqual(ALL_BYTES);
    expect(found?.set?.BS).toEqual([new Uint8Array([1]), new Uint8Array([2])]);
    expect(found?.nested?.M?.B?.L).toEqual([{ B: new Uint8Array([9]) }, { S: 'B' }]);
    expect(output.Count).toBe(1);
    expect(output.$metadata).toEqual({
      httpStatusCode: 200,
      requestId: 'request-1',
      attempts: 1,
      totalRetryDelay: 0,
    });
  });

  it.each([
    { status: 400, type: 'ConditionalCheckFailedException', kind: ConditionalCheckFailedException },
    { status: 400, type: 'ResourceNotFoundException', kind: ResourceNotFoundException },
    {
      status: 400,
      type: 'ItemCollectionSizeLimitExceededException',
      kind: ItemCollectionSizeLimitExceededException,
    },
    { status: 400, type: 'TransactionConflictException', kind: TransactionConflictException },
    { status: 400, type: 'ValidationException', kind: DynamoDBServiceException },
    { status: 400, type: 'SerializationException', kind: DynamoDBServiceException },
  ])('throws a $type reply as the SDK does, without a retry', async ({ status, type, kind }) => {
    endpoint.script(errorReply(status, type, { message: `the ${type}` }));

    const error = await client.send(getItem()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(kind);
    expect(error).toMatchObject({
      name: type,
      message: `the ${type}`,
      $fault: 'client',
      $metadata: { httpStatusCode: status, requestId: 'request-1', attempts: 1 },
    });
    expect(endpoint.received).toHaveLength(1);
    expect(timing.sleeps).toEqual([]);
  });

  it('gives a failed condition the item it reports, binary decoded', async () => {
    endpoint.script(
      errorReply(400, 'ConditionalCheckFailedException', {
        fields: { Item: { data: { B: base64(ALL_BYTES) } } },
      }),
    );

    const error = await client.send(getItem()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ConditionalCheckFailedException);
    expect((error as ConditionalCheckFailedException).Item?.data?.B).toEqual(ALL_BYTES);
  });

  it.each([
    {
      type: 'ProvisionedThroughputExceededException',
      kind: ProvisionedThroughputExceededException,
    },
    { type: 'ThrottlingException', kind: ThrottlingException },
    { type: 'RequestLimitExceeded', kind: RequestLimitExceeded },
  ])('retries $type after a throttling backoff on the clock, then answers', async ({ type }) => {
    endpoint.script(errorReply(400, type), itemReply(KEY));

    const output = await client.send(getItem());

    expect(output.Item).toEqual(KEY);
    expect(output.$metadata).toMatchObject({ attempts: 2, totalRetryDelay: 500 });
    expect(endpoint.received).toHaveLength(2);
    // Full jitter over 1 s for the first retry: the random 0.5 makes it 500 ms.
    expect(timing.sleeps).toEqual([500]);
  });

  it.each([
    {
      type: 'ProvisionedThroughputExceededException',
      kind: ProvisionedThroughputExceededException,
    },
    { type: 'ThrottlingException', kind: ThrottlingException },
  ])(
    'gives up on $type after three attempts, the attempts in the metadata',
    async ({ type, kind }) => {
      endpoint.script(
        errorReply(400, type),
        errorReply(400, type),
        errorReply(400, type),
        itemReply(KEY),
      );

      const error = await client.send(getItem()).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(kind);
      expect(error).toMatchObject({ $metadata: { attempts: 3, totalRetryDelay: 1_000 } });
      expect(endpoint.received).toHaveLength(3);
      // 0.5 of 1 s, then 0.25 of 2 s.
      expect(timing.sleeps).toEqual([500, 500]);
    },
  );

  it('retries a 5xx, a reset connection and an unknown 503 after the short backoff', async () => {
    endpoint.script(errorReply(500, 'InternalServerError'), { kind: 'reset' }, itemReply(KEY));

    const output = await client.send(getItem());

    expect(output.Item).toEqual(KEY);
    expect(endpoint.received).toHaveLength(3);
    // Full jitter over 50 ms, then over 100 ms.
    expect(timing.sleeps).toEqual([25, 25]);

    endpoint.script(
      errorReply(500, 'InternalServerError'),
      errorReply(503, 'ServiceUnavailable'),
      errorReply(500, 'InternalServerError'),
    );
    const error = await client.send(getItem()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      $fault: 'server',
      $metadata: { httpStatusCode: 500, attempts: 3 },
    });

    endpoint.script(
      errorReply(503, 'ServiceUnavailable'),
      errorReply(503, 'ServiceUnavailable'),
      errorReply(503, 'ServiceUnavailable'),
    );
    const unknown = await client.send(getItem()).catch((caught: unknown) => caught);
    expect(unknown).toBeInstanceOf(DynamoDBServiceException);
    expect(unknown).toMatchObject({ name: 'ServiceUnavailable', $fault: 'server' });
    expect(endpoint.received).toHaveLength(3);
  });

  it('stops waiting for a retry, without sending it, when the caller aborts', async () => {
    const waiting = new FakeTiming({ instantSleeps: false });
    const patient = createDynamoDbClient({
      region: REGION,
      endpoint: endpoint.endpoint,
      timing: waiting,
    });
    endpoint.script(errorReply(400, 'ThrottlingException'), itemReply(KEY));
    const controller = new AbortController();

    const failing = patient
      .send(getItem(), { abortSignal: controller.signal })
      .catch((error: unknown) => error);
    await waiting.sleeping();
    controller.abort();

    expect(await failing).toMatchObject({ name: 'AbortError' });
    expect(endpoint.received).toHaveLength(1);
    patient.destroy();
  });

  it('signs again once by the server clock when it refuses the signature for the time', async () => {
    const serverNow = FIXED_NOW + 10 * 60_000;
    const skewed = {
      message: 'Signature expired: 20260116T150000Z is now earlier than 20260116T150500Z',
      headers: { date: new Date(serverNow).toUTCString() },
    };
    endpoint.script(
      errorReply(400, 'InvalidSignatureException', skewed),
      itemReply(KEY),
      itemReply(KEY),
    );

    const output = await client.send(getItem());
    await client.send(getItem());

    expect(output.Item).toEqual(KEY);
    expect(endpoint.received.map((request) => request.headers['x-amz-date'])).toEqual([
      '20260116T150000Z',
      '20260116T151000Z',
      // Later requests keep the correction.
      '20260116T151000Z',
    ]);
    for (const request of endpoint.received)
      expect(signatureProblem(request, LOCAL_SIGNER)).toBeNull();
    expect(timing.sleeps).toEqual([]);

    // A signature refused at a time the clocks agree on is not a clock's fault: no retry.
    endpoint.script(errorReply(400, 'InvalidSignatureException', skewed), itemReply(KEY));
    await expect(client.send(getItem())).rejects.toMatchObject({
      name: 'InvalidSignatureException',
    });
    expect(endpoint.received).toHaveLength(1);
  });

  it('corrects the clock once per request: a second refusal is thrown', async () => {
    const skewed = (minutes: number) => ({
      headers: { date: new Date(FIXED_NOW + minutes * 60_000).toUTCString() },
    });
    endpoint.script(
      errorReply(400, 'InvalidSignatureException', skewed(10)),
      errorReply(400, 'InvalidSignatureException', skewed(-10)),
      itemReply(KEY),
    );

    await expect(client.send(getItem())).rejects.toMatchObject({
      name: 'InvalidSignatureException',
    });
    expect(endpoint.received).toHaveLength(2);
  });

  it('throws a reply that is not JSON as DynamoDbReplyMalformedError, not retried when it succeeded', async () => {
    endpoint.script({ kind: 'text', status: 200, body: '<html>proxy</html>' }, itemReply(KEY));

    const error = await client.send(getItem()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DynamoDbReplyMalformedError);
    expect(error).toMatchObject({ statusCode: 200 });
    expect(endpoint.received).toHaveLength(1);
  });

  it('throws an empty 2xx (a proxy: DynamoDB always answers a document) as DynamoDbReplyMalformedError', async () => {
    endpoint.script({ kind: 'text', status: 200, body: '' }, itemReply(KEY));

    const error = await client.send(getItem()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DynamoDbReplyMalformedError);
    expect(endpoint.received).toHaveLength(1);
  });

  it('retries a 502 that is not JSON as the 5xx it is', async () => {
    endpoint.script(
      { kind: 'text', status: 502, body: '<html>bad gateway</html>' },
      itemReply(KEY),
    );

    const output = await client.send(getItem());

    expect(output.Item).toEqual(KEY);
    expect(endpoint.received).toHaveLength(2);
  });

  it('retries a reply cut short, and a store gets StorageUnavailableError once the attempts are spent', async () => {
    const whole = JSON.stringify({ Item: KEY });
    endpoint.script({ kind: 'cut', status: 200, body: whole }, itemReply(KEY));
    expect((await client.send(getItem())).Item).toEqual(KEY);
    expect(endpoint.received).toHaveLength(2);

    const store = new DynamoDbConversationStore({
      client,
      tableName: 't',
      clock: { now: () => FIXED_NOW },
    });
    const cut = { kind: 'cut', status: 200, body: whole } as const;
    endpoint.script(cut, cut, cut);
    const failure = await store.load('n', 'c').catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect(endpoint.received).toHaveLength(3);

    endpoint.script({ kind: 'text', status: 200, body: '{"Item": {' });
    const malformed = await store.load('n', 'c').catch((caught: unknown) => caught);
    expect(malformed).toBeInstanceOf(StorageUnavailableError);
    expect((malformed as Error).cause).toBeInstanceOf(DynamoDbReplyMalformedError);
  });
});

describe('JsonDynamoDbClient against dynalite', () => {
  const database = useDynalite();
  let client: DynamoDbClient;
  beforeAll(() => {
    client = createDynamoDbClient({ region: DYNALITE_REGION, endpoint: database().endpoint });
    expect(client).toBeInstanceOf(JsonDynamoDbClient);
  });
  afterAll(() => client.destroy());

  const everyKind = (id: string): Record<string, AttributeValue> => ({
    pk: { S: 'NODE#round-trip' },
    sk: { S: id },
    bytes: { B: ALL_BYTES },
    zipped: { B: Buffer.from([31, 139, 8]) },
    byteSet: { BS: [new Uint8Array([1, 2]), new Uint8Array([255])] },
    nested: { M: { inner: { B: new Uint8Array([7]) }, list: { L: [{ B: new Uint8Array([8]) }] } } },
    text: { S: 'héllo ✓' },
    number: { N: '12.5' },
    texts: { SS: ['a', 'b'] },
    numbers: { NS: ['1', '2'] },
    yes: { BOOL: true },
    nothing: { NULL: true },
  });

  it('round-trips every kind of attribute value, binary ones byte for byte', async () => {
    const { tableName } = database();
    await client.send(new PutItemCommand({ TableName: tableName, Item: everyKind('ITEM#1') }));

    const output = await client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { pk: { S: 'NODE#round-trip' }, sk: { S: 'ITEM#1' } },
        ConsistentRead: true,
      }),
    );

    const { zipped, byteSet, ...rest } = everyKind('ITEM#1');
    expect(output.Item).toMatchObject(rest);
    expect(Buffer.from(output.Item?.zipped?.B ?? [])).toEqual(Buffer.from([31, 139, 8]));
    // DynamoDB keeps a set in an order of its own.
    expect(output.Item?.byteSet?.BS?.map((bytes) => [...bytes]).sort()).toEqual([[1, 2], [255]]);
    expect(output.$metadata.httpStatusCode).toBe(200);
  });

  it('updates with a condition and returns the new item, and throws the failed condition', async () => {
    const { tableName } = database();
    const key = { pk: { S: 'NODE#update' }, sk: { S: 'COUNTER' } };
    const update = () =>
      new UpdateItemCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'ADD #count :one SET #blob = :blob',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count', '#blob': 'blob' },
        ExpressionAttributeValues: {
          ':one': { N: '1' },
          ':limit': { N: '2' },
          ':blob': { B: ALL_BYTES },
        },
        ReturnValues: 'ALL_NEW',
      });

    const first = await client.send(update());
    await client.send(update());
    const third = client.send(update());

    expect(first.Attributes?.count).toEqual({ N: '1' });
    expect(first.Attributes?.blob?.B).toEqual(ALL_BYTES);
    await expect(third).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });

  it('queries, scans and deletes', async () => {
    const { tableName } = database();
    for (const id of ['A', 'B', 'C']) {
      await client.send(
        new PutItemCommand({
          TableName: tableName,
          Item: {
            pk: { S: 'NODE#query' },
            sk: { S: id },
            b: { B: new Uint8Array([id.charCodeAt(0)]) },
          },
        }),
      );
    }

    const queried = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk > :after',
        ExpressionAttributeValues: { ':pk': { S: 'NODE#query' }, ':after': { S: 'A' } },
        ConsistentRead: true,
      }),
    );
    const scanned = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'NODE#query' } },
      }),
    );
    const deleted = await client.send(
      new DeleteItemCommand({
        TableName: tableName,
        Key: { pk: { S: 'NODE#query' }, sk: { S: 'B' } },
        ReturnValues: 'ALL_OLD',
      }),
    );

    expect(queried.Items?.map((item) => item.b?.B)).toEqual([
      new Uint8Array([66]),
      new Uint8Array([67]),
    ]);
    expect(scanned.Count).toBe(3);
    expect(deleted.Attributes?.b?.B).toEqual(new Uint8Array([66]));
  });

  it('sends any other operation through the SDK client, its dates as dates', async () => {
    const described = await client.send(
      new DescribeTableCommand({ TableName: database().tableName }),
    );

    expect(described.Table?.TableStatus).toBe('ACTIVE');
    expect(described.Table?.CreationDateTime).toBeInstanceOf(Date);
  });

  it('throws a missing table and a bad expression as the SDK does', async () => {
    const missing = client.send(new GetItemCommand({ TableName: 'jcc-no-such-table', Key: KEY }));
    const invalid = client
      .send(
        new GetItemCommand({
          TableName: database().tableName,
          Key: KEY,
          ProjectionExpression: 'a ++ b',
        }),
      )
      .catch((error: unknown) => error);

    await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(await invalid).toBeInstanceOf(DynamoDBServiceException);
    expect(await invalid).toMatchObject({
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    });
  });
});

describe('JsonDynamoDbClient on an IPv6 endpoint', () => {
  it('reaches dynalite at [::1], both through its JSON and through the SDK client it holds', async () => {
    // Prepare
    const database = await startEmbeddedDynamoDb({ port: 0, host: '::1' });
    const client = createDynamoDbClient({ region: DYNALITE_REGION, endpoint: database.endpoint });

    try {
      // Act
      const missing = client.send(new GetItemCommand({ TableName: 'jcc-no-table', Key: KEY }));
      const described = client.send(new DescribeTableCommand({ TableName: 'jcc-no-table' }));

      // Assess: dynalite's answers, not a failure to connect.
      expect(database.endpoint).toMatch(/^http:\/\/\[::1\]:\d+$/);
      await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundException);
      await expect(described).rejects.toBeInstanceOf(ResourceNotFoundException);
    } finally {
      client.destroy();
      await database.close();
    }
  });
});
