import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { type AttributeValue, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import aws4 from 'aws4';
import { createDynamoDbClient } from '../shared/adapters/dynamodb/client';
import { createTableIfMissing } from '../shared/adapters/dynamodb/table';
import type { BenchRow } from './bench-row';
import { forkChildRpc } from './child-rpc';
import { percentile } from './engine/percentile';

const DYNALITE_CHILD = fileURLToPath(new URL('./dynalite-child.ts', import.meta.url));
const WARM_UP_REQUESTS = 300;
/** Short rounds, the ways interleaved: a machine shared with other work disturbs each alike. */
const ROUNDS = 20;
const REQUESTS_PER_ROUND = 200;
const REGION = 'us-east-1';
const KEY = { pk: { S: 'NODE#bench' }, sk: { S: 'CONVERSATION#bench' } };
/** The size of a conversation item a few turns in: its compressed history is most of it. */
const HISTORY_BYTES = 5_000;

type Send = () => Promise<unknown>;

/**
 * What the DynamoDB client costs the server per request: one GetItem of a conversation-sized
 * item (~6 KB, binary history) through `createDynamoDbClient` (our own JSON client), through the
 * AWS SDK's client it replaces, and as one aws4-signed JSON POST over a keep-alive connection with
 * no retries or timeouts, the floor (docs/decisions/2026-11-26-dynamodb-json-client.md).
 * dynalite runs in a process of its own, so the CPU is this process's: the client's work and
 * Node's HTTP.
 */
export async function runDynamoDbClientBench(): Promise<BenchRow[]> {
  const database = await forkChildRpc<{ endpoint: string }>(DYNALITE_CHILD);
  const { endpoint } = database.ready;
  const client = createDynamoDbClient({ region: REGION, endpoint });
  const sdk = createDynamoDbClient({ region: REGION, endpoint, implementation: 'sdk' });
  const hand = handSignedGetItem(endpoint);
  try {
    const tableName = `jcc-bench-client-${randomUUID()}`;
    await createTableIfMissing(client, tableName, { pollIntervalMs: 10 });
    await client.send(new PutItemCommand({ TableName: tableName, Item: conversationItem() }));
    const input = { TableName: tableName, Key: KEY, ConsistentRead: true };
    const ways: Record<string, Send> = {
      'createDynamoDbClient (our JSON client)': () => client.send(new GetItemCommand(input)),
      'the AWS SDK v3 client (implementation sdk)': () => sdk.send(new GetItemCommand(input)),
      'one aws4-signed JSON request, no SDK': () => hand.send(input),
    };
    for (const [way, send] of Object.entries(ways)) {
      const { Item } = (await send()) as { Item?: { messages?: { B?: Uint8Array } } };
      if (Item?.messages?.B?.length !== HISTORY_BYTES)
        throw new Error(`${way}: not the stored item`);
    }
    const measured = await measureInterleaved(ways);
    return Object.entries(measured).flatMap(([way, { cpuMs, wallMs }]) => [
      {
        name: `DynamoDB GetItem of a ~6 KB item, ${way}: CPU per request (median of ${ROUNDS} rounds)`,
        value: Number(cpuMs.toFixed(3)),
        unit: 'ms',
      },
      {
        name: `DynamoDB GetItem of a ~6 KB item, ${way}: p50`,
        value: Number(wallMs.toFixed(3)),
        unit: 'ms',
      },
    ]);
  } finally {
    client.destroy();
    sdk.destroy();
    hand.destroy();
    await database.call('close');
  }
}

function conversationItem(): Record<string, AttributeValue> {
  const history = Uint8Array.from({ length: HISTORY_BYTES }, (_, index) => (index * 31) % 256);
  return {
    ...KEY,
    record_type: { S: 'conversation' },
    version: { N: '12' },
    timezone: { S: 'Europe/Paris' },
    messages: { B: history },
    command_source: { B: history.slice(0, 800) },
    pending_tool_calls: { L: [{ M: { id: { S: 'call_1' }, name: { S: 'set_timer' } } }] },
  };
}

/** Each way's median over the rounds of its CPU per request and of its rounds' p50. */
async function measureInterleaved(
  ways: Record<string, Send>,
): Promise<Record<string, { cpuMs: number; wallMs: number }>> {
  const names = Object.keys(ways);
  const cpu = new Map<string, number[]>(names.map((name) => [name, []]));
  const wall = new Map<string, number[]>(names.map((name) => [name, []]));
  for (const send of Object.values(ways)) {
    for (let request = 0; request < WARM_UP_REQUESTS; request += 1) await send();
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternating the order keeps either way from always running after the other.
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const send = ways[name] as Send;
      const times: number[] = [];
      const before = process.cpuUsage();
      for (let request = 0; request < REQUESTS_PER_ROUND; request += 1) {
        const startedAt = performance.now();
        await send();
        times.push(performance.now() - startedAt);
      }
      const used = process.cpuUsage(before);
      cpu.get(name)?.push((used.user + used.system) / 1000 / REQUESTS_PER_ROUND);
      wall.get(name)?.push(percentile(times, 0.5));
    }
  }
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        cpuMs: percentile(cpu.get(name) ?? [], 0.5),
        wallMs: percentile(wall.get(name) ?? [], 0.5),
      },
    ]),
  );
}

/**
 * A GetItem as a client of our own would send it: the input as JSON (binary as base64), signed
 * with aws4, POSTed over a keep-alive connection, the reply parsed and its binary attributes
 * decoded. No retries and no timeouts: the bench's measure of the floor, not a client.
 */
function handSignedGetItem(endpoint: string): {
  send(input: object): Promise<unknown>;
  destroy(): void;
} {
  const url = new URL(endpoint);
  const agent = new http.Agent({ keepAlive: true });
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const asBase64 = (_key: string, value: unknown) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
  const send = (input: object) =>
    new Promise<unknown>((resolve, reject) => {
      const body = JSON.stringify(input, asBase64);
      const request = aws4.sign(
        {
          host: url.host,
          path: '/',
          method: 'POST',
          service: 'dynamodb',
          region: REGION,
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': 'DynamoDB_20120810.GetItem',
          },
          body,
        },
        credentials,
      );
      const outgoing = http.request(
        {
          agent,
          hostname: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/',
          headers: request.headers as http.OutgoingHttpHeaders,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => {
            const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
              Item?: Record<string, unknown>;
            };
            if (incoming.statusCode !== 200) {
              reject(new Error(`status ${incoming.statusCode}`));
              return;
            }
            decodeBinary(Object.values(reply.Item ?? {}));
            resolve(reply);
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  return { send, destroy: () => agent.destroy() };
}

/** Replaces each `B` (base64) of these attribute values with its bytes, nested maps and lists too. */
function decodeBinary(values: Iterable<unknown>): void {
  for (const value of values) {
    const attribute = value as { B?: unknown; M?: Record<string, unknown>; L?: unknown[] };
    if (typeof attribute.B === 'string') attribute.B = Buffer.from(attribute.B, 'base64');
    if (attribute.M !== undefined) decodeBinary(Object.values(attribute.M));
    if (attribute.L !== undefined) decodeBinary(attribute.L);
  }
}
