import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { type ApiRoute, binaryMediaTypes } from '../../../functions/http/contract/api-routes';
import { createServiceDependencies } from '../../../functions/wiring/create-service-dependencies';
import type { SpeechDependencies } from '../../../functions/wiring/service-dependencies';
import { localLambdaContext, toApiGatewayEvent } from '../../../infra/local/api-gateway-event';
import {
  metricsNamespace,
  powertoolsServiceName,
} from '../../../infra/stacks/function-environment';
import { readServiceConfig } from '../../../shared/adapters/config/service-config';
import { type DynamoDbClient, DynamoDbNodeRegistry } from '../../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../../shared/adapters/node-key';
import { OpenAiSpeechToText } from '../../../shared/adapters/speech/openai-speech-to-text';
import { OpenAiTextToSpeech } from '../../../shared/adapters/speech/openai-text-to-speech';
import {
  randomIds,
  systemClock,
  systemRandomness,
} from '../../../shared/adapters/system/system-clock';
import type { Clock } from '../../../shared/ports/clock';
import type { RunningDynalite } from '../../support/dynalite';
import { functionHandlers, invokeBuffered } from '../../support/function-handlers';

/** The node every request authenticates as (no registered zone: the query's zone is used). */
export const NODE = { nodeId: 'metrics-node', key: 'metrics-key-2f9c4e1a7b3d' } as const;
/** The node of the rate-limited handlers (one request per window). */
export const LIMITED_NODE = { nodeId: 'limited-node', key: 'limited-key-8a1e5c3f0d6b' } as const;

export interface Sent {
  /** A JSON value (serialized), raw text or bytes; none for a GET. */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly query?: Readonly<Record<string, string>>;
  /** `X-API-Key`; NODE's by default. */
  readonly key?: string;
}

/** One container's handlers of every function, as Lambda runs them, for one configuration. */
export type Send = (route: ApiRoute, request?: Sent) => Promise<APIGatewayProxyResult>;

const keyOf = (node: { nodeId: string; key: string }) => `${node.nodeId}:${node.key}`;

/**
 * The real handlers of every function wired from `env` as production wires them (metrics under
 * the namespace and service the stack gives them), against `database`.
 */
export async function handlersFor(
  database: Pick<RunningDynalite, 'endpoint'>,
  tableName: string,
  env: Readonly<Record<string, string>>,
  options: { readonly clock?: Clock; readonly speech?: SpeechDependencies } = {},
): Promise<Send> {
  const config = readServiceConfig({
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: database.endpoint,
    AWS_REGION: 'us-east-1',
    AUTH_REJECTION_FLOOR_MS: '0',
    NODE_RATE_LIMIT: '0',
    POWERTOOLS_SERVICE_NAME: powertoolsServiceName,
    POWERTOOLS_METRICS_NAMESPACE: metricsNamespace,
    ...env,
  });
  const dependencies = createServiceDependencies({
    config,
    apiKey: 'sk-metrics-test',
    clock: options.clock ?? systemClock,
    ids: randomIds,
    random: systemRandomness,
    logger: new Logger({ serviceName: powertoolsServiceName, logLevel: 'SILENT' }),
    ...(options.speech === undefined ? {} : { speech: options.speech }),
  });
  const handlers = await functionHandlers(dependencies);
  return (route, request = {}) => {
    const handler = handlers.get(route.function.id);
    if (handler === undefined) throw new Error(`no handler for ${route.function.id}`);
    const body =
      request.body === undefined
        ? Buffer.alloc(0)
        : Buffer.isBuffer(request.body)
          ? request.body
          : Buffer.from(
              typeof request.body === 'string' ? request.body : JSON.stringify(request.body),
            );
    const event = toApiGatewayEvent({
      method: route.method,
      path: route.path,
      query: new URLSearchParams(request.query ?? {}),
      headers: {
        'x-api-key': request.key ?? keyOf(NODE),
        ...(request.body === undefined
          ? {}
          : { 'content-type': request.contentType ?? 'application/json' }),
      },
      body,
      sourceIp: '127.0.0.1',
      binaryMediaTypes,
    });
    return invokeBuffered(handler, event, localLambdaContext(route.function.name, 29_000));
  };
}

/** Registers NODE and LIMITED_NODE in `tableName`. */
export async function registerNodes(client: DynamoDbClient, tableName: string): Promise<void> {
  const registry = new DynamoDbNodeRegistry({ client, tableName });
  for (const node of [NODE, LIMITED_NODE]) {
    await registry.put({
      nodeId: node.nodeId,
      keyHash: hashNodeKey(node.key),
      timezone: null,
      room: null,
      name: node.nodeId,
      enabled: true,
    });
  }
}

/**
 * A table whose key is not ours: every read of it is refused as a malformed request
 * (ValidationException), which the adapters keep as a bug, a 500, rather than a 503.
 */
export async function createForeignTable(client: DynamoDbClient): Promise<string> {
  const tableName = `jcc-foreign-${randomUUID()}`;
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  for (;;) {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (described.Table?.TableStatus === 'ACTIVE') return tableName;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once `count()` reaches `target`: a request has got as far as the model. */
export async function until(count: () => number, target: number): Promise<void> {
  while (count() < target) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Speech in and out through the real OpenAI-compatible adapters, against `baseURL`. */
export function speechThrough(baseURL: string): SpeechDependencies {
  const apiKey = 'sk-metrics-speech';
  return {
    speechToText: new OpenAiSpeechToText({
      baseURL,
      apiKey,
      model: 'whisper-1',
      maxCharacters: 2_000,
    }),
    textToSpeech: new OpenAiTextToSpeech({
      baseURL,
      apiKey,
      model: 'tts-1',
      voice: 'alloy',
      format: { kind: 'pcm', sampleRate: SPEECH_RATE },
    }),
  };
}

/** What the scripted audio server answers in: raw PCM, 24 kHz mono 16-bit. */
export const SPEECH_RATE = 24_000;

/** A multipart form holding `file` as its `file` part, as the node uploads its recording. */
export async function multipartUpload(
  file: Uint8Array,
  part = 'file',
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  form.append(part, new Blob([file], { type: 'audio/wav' }), 'recording.wav');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}
