import { randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import { Agent, type ClientRequest, type IncomingMessage, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { binaryMediaTypes } from '../functions/http/contract/api-routes';
import { createServiceDependencies } from '../functions/wiring/create-service-dependencies';
import { startEmbeddedDynamoDb } from '../infra/local/embedded-dynamodb';
import {
  headerAuthenticator,
  type SharedHeaderAuthenticator,
} from '../infra/local/header-authenticator';
import { installLambdaStreamingGlobals } from '../infra/local/lambda-response-streaming';
import { type LocalApiServer, startLocalApiServer } from '../infra/local/local-api-server';
import { readServiceConfig } from '../shared/adapters/config/service-config';
import { DynamoDbConversationStore, DynamoDbNodeRegistry } from '../shared/adapters/dynamodb';
import { createTableIfMissing } from '../shared/adapters/dynamodb/table';
import { hashNodeKey } from '../shared/adapters/node-key';
import { randomIds, systemClock, systemRandomness } from '../shared/adapters/system/system-clock';
import type { Timing } from '../shared/adapters/system/timing';
import {
  type CountedRequest,
  type CountingClient,
  countingDynamoDbClient,
} from '../test/support/counting-dynamodb-client';
import { functionHandlers, localRoutes } from '../test/support/function-handlers';
import { type ChildRpc, forkChildRpc } from './child-rpc';
import { type InstantModelStats, startInstantModel } from './load/instant-model';
import { silenceOutput } from './load/load-stack';

export const TURN_NODE = { nodeId: 'bench-node', key: 'bench-key-7f3e9a1c5d2b' } as const;

/** One HTTP request to the stack: its answer, how long it took, which DynamoDB requests it made. */
export interface Posted {
  readonly status: number;
  readonly body: unknown;
  readonly replayed: boolean;
  readonly milliseconds: number;
  readonly requests: readonly CountedRequest[];
  readonly stages: Stages;
}

/**
 * Where a request's time went, in milliseconds: from the server receiving it to its response
 * sent (Node's HTTP diagnostics channel), and within that the DynamoDB client's sends (the
 * client's work on the request and the reply and the round trip, timed around the counted
 * client's send), the model calls on the wire (providerFetch's request, created to its reply's end), and
 * of those the scripted model's own handling (its server receiving the request to its answer
 * sent). Nothing of the service is wrapped.
 */
export interface Stages {
  readonly server: number;
  readonly dynamodb: number;
  readonly modelCall: number;
  readonly modelServer: number;
}

/** What Node's HTTP client tells of a reply whose headers have come. */
interface ModelExchange {
  readonly request: ClientRequest;
  readonly response: IncomingMessage;
}

/** Sums the HTTP stages this process serves and fetches from the model, until `take`. */
function stageClock(model: string) {
  const modelHost = new URL(model).host;
  const started = new WeakMap<object, number>();
  let stages = { server: 0, modelCall: 0, modelServer: 0 };
  const add = (stage: keyof typeof stages, key: object) => {
    const at = started.get(key);
    if (at !== undefined) stages[stage] += performance.now() - at;
  };
  const handlers = {
    // The model's calls go through providerFetch, on node:http: created, to the reply's end.
    'http.client.request.created': ({ request }: { request: ClientRequest }) => {
      if (request.getHeader('host') === modelHost) {
        started.set(request, performance.now());
      }
    },
    'http.client.response.finish': ({ request, response }: ModelExchange) => {
      if (started.has(request)) response.once('end', () => add('modelCall', request));
    },
    'http.server.request.start': ({ request }: { request: object }) => {
      started.set(request, performance.now());
    },
    'http.server.response.finish': ({ request }: { request: IncomingMessage }) => {
      // The service's own routes, and the scripted model's (dynalite's server is the third).
      if (request.url?.startsWith('/api/') === true) add('server', request);
      else if (request.url?.endsWith('/chat/completions') === true) add('modelServer', request);
    },
  } as const;
  for (const [name, handler] of Object.entries(handlers)) {
    diagnostics.subscribe(name, handler as diagnostics.ChannelListener);
  }
  return {
    take: () => {
      const taken = stages;
      stages = { server: 0, modelCall: 0, modelServer: 0 };
      return taken;
    },
    close: () => {
      for (const [name, handler] of Object.entries(handlers)) {
        diagnostics.unsubscribe(name, handler as diagnostics.ChannelListener);
      }
    },
  };
}

export interface TurnStack {
  /** POSTs `body` as the registered node (or with `apiKey`), counting the server's DynamoDB requests. */
  post(path: string, body: unknown, apiKey?: string): Promise<Posted>;
  /** The conversation store on the counted client (a test holds a claim with it). */
  readonly store: DynamoDbConversationStore;
  /** Starts counting afresh (what a test did directly is not the next request's). */
  readonly counting: CountingClient;
  model(): Promise<InstantModelStats>;
  close(): Promise<void>;
}

/**
 * The service as `npm start` runs it, on one DynamoDB client whose every request is counted: the
 * real handlers behind the local server (the key checked from the headers by the authenticator
 * they share), dynalite, the instant scripted model, the production defaults otherwise (rate
 * limit on, high enough never to refuse), one registered node.
 */
export async function startTurnStack(
  options: {
    /** The authenticator's clock and refusal-floor waits (a test counts them); the system's. */
    readonly authTiming?: Timing;
    /**
     * Dynalite and the model each in a process of their own, as DynamoDB and a model server are
     * in AWS: this process then runs the server (and the bench's client) alone.
     */
    readonly apart?: boolean;
  } = {},
): Promise<TurnStack> {
  installLambdaStreamingGlobals();
  const output = silenceOutput();
  const { database, model } = await (options.apart === true ? servicesApart() : servicesHere());
  const counting = countingDynamoDbClient(database.endpoint);
  const tableName = `jcc-bench-turn-${randomUUID()}`;
  const clock = stageClock(new URL(model.baseURL).origin);
  // A keep-alive client as lean as a node's (Python requests): the bench times the server.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const close = async () => {
    clock.close();
    agent.destroy();
    await server?.close();
    authenticate?.close();
    counting.client.destroy();
    await model.close();
    await database.close();
    output.restore();
  };
  let server: LocalApiServer | undefined;
  let authenticate: SharedHeaderAuthenticator | undefined;
  try {
    await createTableIfMissing(counting.client, tableName);
    await new DynamoDbNodeRegistry({ client: counting.client, tableName }).put({
      nodeId: TURN_NODE.nodeId,
      keyHash: hashNodeKey(TURN_NODE.key),
      timezone: 'America/New_York',
      room: null,
      name: TURN_NODE.nodeId,
      enabled: true,
    });
    const config = readServiceConfig({
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: database.endpoint,
      AWS_REGION: 'us-east-1',
      OPENAI_BASE_URL: model.baseURL,
      LLM_MODEL: 'scripted',
      WARMUP_TIMEOUT_MS: '0',
      NODE_RATE_LIMIT: '100000',
    });
    // Before the handlers are wired, as npm start does: they share it.
    authenticate = headerAuthenticator(config, {
      client: counting.client,
      ...(options.authTiming === undefined ? {} : { timing: options.authTiming }),
    });
    const dependencies = createServiceDependencies({
      config,
      apiKey: 'sk-bench-scripted',
      clock: systemClock,
      ids: randomIds,
      random: systemRandomness,
      logger: new Logger({ serviceName: 'jcc' }),
      metrics: new Metrics({ namespace: 'Jcc', serviceName: 'jcc' }),
      dynamoDbClient: counting.client,
    });
    const handlers = await functionHandlers(dependencies);
    server = await startLocalApiServer({
      port: 0,
      binaryMediaTypes,
      authenticate,
      routes: localRoutes(handlers),
    });
  } catch (error) {
    await close();
    throw error;
  }
  const url = server.url;
  counting.take();
  return {
    post: async (path, body, apiKey = `${TURN_NODE.nodeId}:${TURN_NODE.key}`) => {
      counting.take();
      counting.takeMilliseconds();
      clock.take();
      const startedAt = performance.now();
      const response = await postJson(agent, `${url}${path}`, JSON.stringify(body), apiKey);
      const milliseconds = performance.now() - startedAt;
      return {
        status: response.status,
        body: JSON.parse(response.text) as unknown,
        replayed: response.replayed,
        milliseconds,
        requests: counting.take(),
        stages: { ...clock.take(), dynamodb: counting.takeMilliseconds() },
      };
    },
    store: new DynamoDbConversationStore({
      client: counting.client,
      tableName,
      clock: systemClock,
    }),
    counting,
    model: () => model.stats(),
    close,
  };
}

interface TurnServices {
  readonly database: { readonly endpoint: string; close(): Promise<void> };
  readonly model: {
    readonly baseURL: string;
    stats(): Promise<InstantModelStats>;
    close(): Promise<void>;
  };
}

async function servicesHere(): Promise<TurnServices> {
  const database = await startEmbeddedDynamoDb({ port: 0 });
  const model = await startInstantModel();
  return { database, model: { ...model, stats: async () => model.stats() } };
}

const DYNALITE_CHILD = fileURLToPath(new URL('./dynalite-child.ts', import.meta.url));
const MODEL_CHILD = fileURLToPath(new URL('./instant-model-child.ts', import.meta.url));

async function servicesApart(): Promise<TurnServices> {
  const database = await forkChildRpc<{ endpoint: string }>(DYNALITE_CHILD);
  const model = await forkChildRpc<{ baseURL: string }>(MODEL_CHILD).catch((error: unknown) => {
    database.process.kill();
    throw error;
  });
  const closed = (child: ChildRpc<unknown>) => () => child.call('close').then(() => undefined);
  return {
    database: { endpoint: database.ready.endpoint, close: closed(database) },
    model: {
      baseURL: model.ready.baseURL,
      stats: () => model.call<InstantModelStats>('stats'),
      close: closed(model),
    },
  };
}

/** One POST of JSON over `agent`: its status, its text, and whether it was a replay. */
function postJson(
  agent: Agent,
  url: string,
  body: string,
  apiKey: string,
): Promise<{ status: number; text: string; replayed: boolean }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-api-key': apiKey,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            replayed: response.headers['idempotent-replayed'] === 'true',
          }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}
