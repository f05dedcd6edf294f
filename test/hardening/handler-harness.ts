import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll } from 'vitest';
import { apiRoutes } from '../../functions/http/contract/api-routes';
import { createServiceDependencies } from '../../functions/wiring/create-service-dependencies';
import { localLambdaContext, toApiGatewayEvent } from '../../infra/local/api-gateway-event';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../shared/adapters/node-key';
import {
  randomIds,
  systemClock,
  systemRandomness,
} from '../../shared/adapters/system/system-clock';
import type { UntrustedWork } from '../../shared/conversation';
import { type RunningDynalite, startDynalite } from '../support/dynalite';
import { functionHandlers, invokeBuffered } from '../support/function-handlers';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../support/scripted-llm-server';

/** Every route of the table that takes a body: what the fuzzers aim at. */
export const ROUTES = apiRoutes
  .filter((route) => route.method === 'POST')
  .map((route) => route.path);
export type RoutePath = string;
export type Invoke = (
  path: RoutePath,
  event: APIGatewayProxyEvent,
  /** The function's timeout, as Lambda gives it in the context (29 s: API Gateway's wait). */
  functionTimeoutMs?: number,
) => Promise<APIGatewayProxyResult>;

/** Every function's real handler, wired as production wires them, against dynalite and a model URL. */
export async function realHandlers(
  database: RunningDynalite,
  llmBaseUrl: string,
  untrustedWork?: UntrustedWork,
): Promise<Invoke> {
  const config = readServiceConfig({
    TABLE_NAME: database.tableName,
    DYNAMODB_ENDPOINT: database.endpoint,
    OPENAI_BASE_URL: llmBaseUrl,
    LLM_MODEL: 'scripted',
    AWS_REGION: 'us-east-1',
    // Thousands of refused keys: the floor that hides which node ids exist has its own tests.
    AUTH_REJECTION_FLOOR_MS: '0',
    // One node sends them all; the per-node limit has its own tests.
    NODE_RATE_LIMIT: '0',
    // A warm-up would take the first scripted reply; it has its own tests.
    WARMUP_TIMEOUT_MS: '0',
  });
  const dependencies = createServiceDependencies({
    config,
    apiKey: 'sk-fuzz-secret',
    clock: systemClock,
    ids: randomIds,
    random: systemRandomness,
    logger: new Logger({ serviceName: 'jcc', logLevel: 'SILENT' }),
    metrics: new Metrics({ namespace: 'Jcc', serviceName: 'jcc', singleMetric: false }),
    ...(untrustedWork === undefined ? {} : { untrustedWork }),
  });
  await new DynamoDbNodeRegistry({ client: database.client, tableName: database.tableName }).put({
    nodeId: 'fuzz-node',
    keyHash: hashNodeKey('fuzz-key'),
    timezone: 'America/New_York',
    room: null,
    name: 'fuzz',
    enabled: true,
  });
  const handlers = await functionHandlers(dependencies);
  return (path, event, functionTimeoutMs = 29_000) => {
    const route = apiRoutes.find((candidate) => candidate.path === path);
    const handler = route === undefined ? undefined : handlers.get(route.function.id);
    if (handler === undefined) throw new Error(`no route ${path} in the route table`);
    return invokeBuffered(handler, event, localLambdaContext(path, functionTimeoutMs));
  };
}

export function eventFor(
  path: RoutePath,
  body: string | Buffer,
  headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-key': 'fuzz-node:fuzz-key',
  },
): APIGatewayProxyEvent {
  return toApiGatewayEvent({
    method: 'POST',
    path,
    query: new URLSearchParams(),
    headers,
    body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
    sourceIp: '127.0.0.1',
  });
}

/** Registers a conversation of the harness's node with one command, `set_timer(duration_seconds: int)`. */
export async function startTimerConversation(
  invoke: Invoke,
  conversationId: string,
): Promise<void> {
  const registration = {
    conversation_id: conversationId,
    available_commands: [
      {
        command_name: 'set_timer',
        parameters: [{ name: 'duration_seconds', type: 'int', required: true }],
      },
    ],
  };
  const path = '/api/v0/conversation/start';
  const started = await invoke(path, eventFor(path, JSON.stringify(registration)));
  if (started.statusCode !== 200) {
    throw new Error(`conversation/start answered ${started.statusCode}: ${started.body}`);
  }
}

export interface RealHandlers {
  readonly invoke: Invoke;
  readonly llm: ScriptedLlmServer;
  readonly database: RunningDynalite;
}

/**
 * dynalite, a scripted model and the real handlers wired to them, started before the tests
 * of the calling file and stopped after them; the returned function gives them inside a test.
 */
export function useRealHandlers(untrustedWork?: UntrustedWork): () => RealHandlers {
  let running: RealHandlers | undefined;
  beforeAll(async () => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    const [database, llm] = await Promise.all([startDynalite(), startScriptedLlmServer()]);
    running = { database, llm, invoke: await realHandlers(database, llm.baseURL, untrustedWork) };
  });
  afterAll(async () => {
    await Promise.all([running?.database.close(), running?.llm.close()]);
  });
  return () => {
    if (running === undefined)
      throw new Error('useRealHandlers: the handlers run only inside tests');
    return running;
  };
}
