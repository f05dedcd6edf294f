import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { apiRoutes, binaryMediaTypes, routePath } from '../functions/http/contract/api-routes';
import { createServiceDependencies } from '../functions/wiring/create-service-dependencies';
import { startEmbeddedDynamoDb } from '../infra/local/embedded-dynamodb';
import { installLambdaStreamingGlobals } from '../infra/local/lambda-response-streaming';
import { type LocalApiServer, startLocalApiServer } from '../infra/local/local-api-server';
import { readServiceConfig } from '../shared/adapters/config/service-config';
import { createDynamoDbClient, DynamoDbNodeRegistry } from '../shared/adapters/dynamodb';
import { createTableIfMissing } from '../shared/adapters/dynamodb/table';
import { hashNodeKey } from '../shared/adapters/node-key';
import { randomIds, systemClock, systemRandomness } from '../shared/adapters/system/system-clock';
import { fixtureStartBody } from '../test/http/http-fixtures';
import { functionHandlers } from '../test/support/function-handlers';
import type { BenchRow } from './bench-row';
import { percentile } from './engine/percentile';
import { startInstantModel } from './load/instant-model';
import { silenceOutput } from './load/load-stack';

const WARM_UP_TURNS = 20;
const TURNS = 200;
const NODE = { nodeId: 'bench-node', key: 'bench-key-7f3e9a1c5d2b' } as const;
const ROUTES = {
  start: routePath('conversation-start'),
  command: routePath('voice-command'),
  continue: routePath('voice-command-continue'),
} as const;

/** The DynamoDB operations one HTTP request made, counted at the client, by operation. */
type OperationCounts = Map<string, number>;

interface CountingClient {
  readonly client: DynamoDBClient;
  /** What was sent since the last call, then starts counting afresh. */
  take(): OperationCounts;
}

/** A DynamoDB client whose every request (each attempt, retries included) is counted. */
function countingClient(endpoint: string): CountingClient {
  const client = createDynamoDbClient({ region: 'us-east-1', endpoint });
  let counts: OperationCounts = new Map();
  client.middlewareStack.add(
    (next, context) => (args) => {
      const operation = context.commandName?.replace(/Command$/, '') ?? 'call';
      counts.set(operation, (counts.get(operation) ?? 0) + 1);
      return next(args);
    },
    // After the retry step: each attempt is one round trip.
    { step: 'finalizeRequest', name: 'benchRequestCount' },
  );
  return {
    client,
    take: () => {
      const taken = counts;
      counts = new Map();
      return taken;
    },
  };
}

/** One request of the exchange: what it asked, what came back, how long, which requests it made. */
interface Measured {
  readonly label: string;
  readonly milliseconds: number;
  readonly operations: OperationCounts;
}

/**
 * What the server adds to a turn: voice/command (one tool call) then continue (the answer), over
 * real HTTP through the real handlers against dynalite and the instant scripted model, as
 * `npm start` runs them, the production defaults otherwise (rate limit on, request ids as the
 * node sends them or not). Prints the p50 and p99 of the turn and of each route, and how many
 * DynamoDB requests each route and outcome makes (counted on the client).
 */
export async function runHttpTurnBench(): Promise<{ rows: BenchRow[]; details: string[] }> {
  installLambdaStreamingGlobals();
  const output = silenceOutput();
  const database = await startEmbeddedDynamoDb({ port: 0 });
  const model = await startInstantModel();
  const counting = countingClient(database.endpoint);
  const tableName = `jcc-bench-turn-${randomUUID()}`;
  let server: LocalApiServer | undefined;
  try {
    await createTableIfMissing(counting.client, tableName);
    await new DynamoDbNodeRegistry({ client: counting.client, tableName }).put({
      nodeId: NODE.nodeId,
      keyHash: hashNodeKey(NODE.key),
      timezone: 'America/New_York',
      room: null,
      name: NODE.nodeId,
      enabled: true,
    });
    server = await serve(counting.client, database.endpoint, tableName, model.baseURL);
    const post = postTo(server, counting);
    const conversationId = `bench-${randomUUID()}`;
    await post('start', ROUTES.start, fixtureStartBody(conversationId));

    const turns: number[] = [];
    const byLabel = new Map<string, Measured[]>();
    const record = (measured: Measured) => {
      const list = byLabel.get(measured.label) ?? [];
      list.push(measured);
      byLabel.set(measured.label, list);
    };
    let cpuAtFirstWarmTurn: NodeJS.CpuUsage | null = null;
    for (let turn = 0; turn < WARM_UP_TURNS + TURNS; turn += 1) {
      const warm = turn >= WARM_UP_TURNS;
      if (turn === WARM_UP_TURNS) cpuAtFirstWarmTurn = process.cpuUsage();
      const withId = turn % 2 === 1;
      const suffix = withId ? ', with request_id' : '';
      const asked = await post(`voice/command (tool_calls)${suffix}`, ROUTES.command, {
        conversation_id: conversationId,
        voice_command: `set a timer [turn ${turn}]`,
        ...(withId ? { request_id: `turn-${turn}-command` } : {}),
      });
      const callId = (asked.body as { tool_calls: { id: string }[] }).tool_calls[0]?.id;
      const results = {
        conversation_id: conversationId,
        tool_results: [{ tool_call_id: callId, output: { success: true } }],
        ...(withId ? { request_id: `turn-${turn}-continue` } : {}),
      };
      const answered = await post(`continue (complete)${suffix}`, ROUTES.continue, results);
      // A resend of the same request now and then (with its id): what a replay costs.
      const replay =
        turn % 10 === 1 ? await post(`continue replayed${suffix}`, ROUTES.continue, results) : null;
      if (!warm) continue;
      turns.push(asked.measured.milliseconds + answered.measured.milliseconds);
      record(asked.measured);
      record(answered.measured);
      if (replay !== null) record(replay.measured);
    }
    const cpu = process.cpuUsage(cpuAtFirstWarmTurn ?? undefined);
    const rows: BenchRow[] = [
      ['p50', 0.5],
      ['p99', 0.99],
    ].map(([name, quantile]) => ({
      name: `HTTP turn (voice/command + continue, instant model, dynalite) ${name}`,
      value: Number(percentile(turns, quantile as number).toFixed(2)),
      unit: 'ms',
    }));
    // CPU is what a shared machine disturbs least: the process's, every thread, per warm turn
    // (the server, dynalite and the scripted model all run here, as with npm start).
    rows.push({
      name: 'HTTP turn CPU of the process (server, dynalite, model), mean per turn',
      value: Number(((cpu.user + cpu.system) / 1000 / TURNS).toFixed(2)),
      unit: 'ms',
    });
    for (const [label, measured] of byLabel) {
      rows.push({
        name: `HTTP ${label} p50`,
        value: Number(
          percentile(
            measured.map((entry) => entry.milliseconds),
            0.5,
          ).toFixed(2),
        ),
        unit: 'ms',
      });
    }
    const stats = model.stats();
    if (stats.protocolViolations > 0) {
      throw new Error(`the model saw a malformed request: ${stats.firstViolation}`);
    }
    return { rows, details: [requestTable(byLabel)] };
  } finally {
    await server?.close();
    counting.client.destroy();
    await model.close();
    await database.close();
    output.restore();
  }
}

function postTo(server: LocalApiServer, counting: CountingClient) {
  return async (label: string, path: string, body: unknown) => {
    counting.take();
    const startedAt = performance.now();
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': `${NODE.nodeId}:${NODE.key}` },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const milliseconds = performance.now() - startedAt;
    if (response.status !== 200) throw new Error(`${label}: ${response.status} ${text}`);
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    if (label.includes('replayed') !== replayed) throw new Error(`${label}: replayed ${replayed}`);
    return {
      body: JSON.parse(text) as unknown,
      measured: { label, milliseconds, operations: counting.take() },
    };
  };
}

/** Per route and outcome: the DynamoDB requests of one request (the median), by operation. */
function requestTable(byLabel: ReadonlyMap<string, readonly Measured[]>): string {
  const lines = [
    'DynamoDB requests per HTTP request, counted at the client (median over the warm turns)',
    '',
    '| route (outcome) | requests | by operation |',
    '|---|---|---|',
  ];
  for (const [label, measured] of byLabel) {
    const totals = measured.map((entry) =>
      [...entry.operations.values()].reduce((a, b) => a + b, 0),
    );
    const median = percentile(totals, 0.5);
    const typical = measured.find((_, index) => totals[index] === median) ?? measured[0];
    const operations = [...(typical?.operations ?? new Map()).entries()]
      .map(([operation, count]) => `${operation} ${count}`)
      .join(', ');
    lines.push(`| ${label} | ${median} | ${operations} |`);
  }
  return lines.join('\n');
}

async function serve(
  client: DynamoDBClient,
  endpoint: string,
  tableName: string,
  modelURL: string,
): Promise<LocalApiServer> {
  const config = readServiceConfig({
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: 'us-east-1',
    OPENAI_BASE_URL: modelURL,
    LLM_MODEL: 'scripted',
    WARMUP_TIMEOUT_MS: '0',
    NODE_RATE_LIMIT: '100000',
  });
  const dependencies = createServiceDependencies({
    config,
    apiKey: 'sk-bench-scripted',
    clock: systemClock,
    ids: randomIds,
    random: systemRandomness,
    logger: new Logger({ serviceName: 'jcc' }),
    metrics: new Metrics({ namespace: 'Jcc', serviceName: 'jcc' }),
    dynamoDbClient: client,
  });
  const handlers = await functionHandlers(dependencies);
  return startLocalApiServer({
    port: 0,
    binaryMediaTypes,
    routes: apiRoutes.map((route) => {
      const handler = handlers.get(route.function.id);
      if (handler === undefined) throw new Error(`no handler for ${route.function.id}`);
      return { method: route.method, path: route.path, functionName: route.function.name, handler };
    }),
  });
}
