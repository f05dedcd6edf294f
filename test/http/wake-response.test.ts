import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoute } from '../../functions/http/contract/api-routes';
import type { RouteHandler } from '../../functions/http/edge/route-request';
import { createWakeResponseHandler } from '../../functions/node-helpers';
import { createServiceDependencies } from '../../functions/wiring/create-service-dependencies';
import { localLambdaContext, toApiGatewayEvent } from '../../infra/local/api-gateway-event';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../shared/adapters/node-key';
import { randomIds } from '../../shared/adapters/system/system-clock';
import {
  ANY_TIME_GREETINGS,
  PART_OF_DAY_GREETINGS,
} from '../../shared/conversation/acknowledgement/wake-greeting';
import { DYNALITE_REGION, useDynalite } from '../support/dynalite';
import { type CapturedOutput, captureProcessOutput } from '../support/local-stack-harness';
import { strictClientProblems, wakeResponseModel } from '../support/strict-node-models';

/** 2026-01-16 23:30 UTC: 08:30 in Tokyo, 18:30 in New York, 23:30 in UTC. */
const INSTANT = Date.parse('2026-01-16T23:30:00Z');
const HOUR_MS = 3_600_000;

const NODES = {
  tokyo: { nodeId: 'tokyo-node', key: 'wake-key-tokyo-8d2f', timezone: 'Asia/Tokyo' },
  newYork: { nodeId: 'ny-node', key: 'wake-key-ny-3b7c', timezone: 'America/New_York' },
  zoneless: { nodeId: 'zoneless-node', key: 'wake-key-utc-5e1a', timezone: null },
} as const;
type NodeName = keyof typeof NODES;

const database = useDynalite();
/** What the fake clock reads and the next random numbers the handler gets, set by each test. */
let now = INSTANT;
let randomNumbers: number[] = [];
let handler: RouteHandler | undefined;
let output: CapturedOutput | undefined;

beforeAll(async () => {
  output = captureProcessOutput(process.env.JCC_TEST_LOGS === '1');
  const { endpoint, tableName, client } = database();
  const config = readServiceConfig({
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: DYNALITE_REGION,
    NODE_RATE_LIMIT: '0',
  });
  const registry = new DynamoDbNodeRegistry({ client, tableName });
  for (const node of Object.values(NODES)) {
    await registry.put({
      nodeId: node.nodeId,
      keyHash: hashNodeKey(node.key),
      timezone: node.timezone,
      room: null,
      name: node.nodeId,
      enabled: true,
    });
  }
  handler = createWakeResponseHandler(
    createServiceDependencies({
      config,
      apiKey: null,
      clock: { now: () => now },
      ids: randomIds,
      random: { next: () => randomNumbers.shift() ?? 0 },
      logger: new Logger({ serviceName: 'jcc', logLevel: 'SILENT' }),
      metrics: new Metrics({ namespace: 'Jcc', serviceName: 'jcc' }),
    }),
  );
});

afterAll(() => output?.restore());

/** POST wake-response as the node sends it: its key, no body, no Content-Type. */
async function wake(name: NodeName, headers: Record<string, string> = {}, body = '') {
  if (handler === undefined) throw new Error('the handler is built in beforeAll');
  const node = NODES[name];
  const event = toApiGatewayEvent({
    method: 'POST',
    path: apiRoute('wake-response').path,
    query: new URLSearchParams(),
    headers: { 'x-api-key': `${node.nodeId}:${node.key}`, 'content-length': '0', ...headers },
    body: Buffer.from(body, 'utf8'),
    sourceIp: '127.0.0.1',
  });
  const result = await handler(event, localLambdaContext('wake-response', 29_000));
  return { status: result.statusCode, json: JSON.parse(result.body) as unknown };
}

const textOf = (json: unknown): string => (json as { text: string }).text;

describe('POST /api/v0/wake-response (the real handler, a fake clock and chosen random numbers)', () => {
  it('varies the greeting with the random number: five numbers, five different phrases', async () => {
    // Prepare
    now = INSTANT;
    randomNumbers = [0, 0.2, 0.4, 0.6, 0.8];

    // Act
    const responses = [];
    for (let index = 0; index < 5; index += 1) responses.push(await wake('tokyo'));

    // Assess
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(strictClientProblems(wakeResponseModel, response.json)).toEqual([]);
    }
    expect(new Set(responses.map((response) => textOf(response.json))).size).toBe(5);
  });

  it.each([
    ['tokyo', 'morning', '08:30 in Tokyo'],
    ['newYork', 'evening', '18:30 in New York'],
    ['zoneless', 'night', '23:30 in UTC, for a node with no zone registered'],
  ] as const)(
    'greets %s for its own time of day at one instant: %s (%s)',
    async (name, part, _when) => {
      // Prepare
      now = INSTANT;
      randomNumbers = [0];

      // Act
      const response = await wake(name);

      // Assess
      expect(response.status).toBe(200);
      expect(PART_OF_DAY_GREETINGS[part]).toContain(textOf(response.json));
    },
  );

  it('follows the clock: the same node and number greet for the afternoon five hours later', async () => {
    // Prepare
    now = INSTANT + 5 * HOUR_MS;
    randomNumbers = [0];

    // Act
    const response = await wake('tokyo');

    // Assess
    expect(PART_OF_DAY_GREETINGS.afternoon).toContain(textOf(response.json));
  });

  it('never greets a Tokyo morning with another part of the day, whatever the number', async () => {
    // Prepare
    now = INSTANT;
    randomNumbers = Array.from({ length: 10 }, (_, index) => index / 10);
    const allowed = [...PART_OF_DAY_GREETINGS.morning, ...ANY_TIME_GREETINGS];

    // Act
    const texts = [];
    for (let index = 0; index < 10; index += 1) texts.push(textOf((await wake('tokyo')).json));

    // Assess
    expect(texts.filter((text) => !allowed.includes(text))).toEqual([]);
  });

  it('ignores whatever body a client sends: JSON, an empty object, or text', async () => {
    randomNumbers = [0, 0, 0];
    for (const [contentType, body] of [
      ['application/json', '{}'],
      ['application/json', '{"voice_command": "hello"}'],
      ['text/plain', 'not json at all'],
    ] as const) {
      const response = await wake('tokyo', { 'content-type': contentType }, body);
      expect(response.status).toBe(200);
      expect(textOf(response.json)).not.toBe('');
    }
  });

  it('authenticates first: a wrong key is a 401 and gets no greeting', async () => {
    // Act
    const response = await wake('tokyo', { 'x-api-key': `${NODES.tokyo.nodeId}:wrong-key` });

    // Assess
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ error: { code: 'unauthorized' } });
  });
});
