import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { outcomeOfAwsError } from '../tracing/subsegment-outcome';
import { traced } from '../tracing/xray-subsegments';
import { BufferedHttpHandler } from './buffered-http-handler';

/**
 * Short timeouts so an unreachable database fails a request in a few seconds instead of hanging
 * until the Lambda or API Gateway deadline: three attempts of at most one second to connect and
 * three seconds to answer.
 */
export const DYNAMODB_CLIENT_DEFAULTS = {
  connectionTimeoutMs: 1_000,
  requestTimeoutMs: 3_000,
  maxAttempts: 3,
} as const;

export interface DynamoDbClientOptions {
  readonly region: string;
  /** A local endpoint (dynalite, DynamoDB Local); AWS's own endpoint when absent. */
  readonly endpoint?: string;
  /** Overrides of `DYNAMODB_CLIENT_DEFAULTS`, for tests that need a hung server to fail fast. */
  readonly connectionTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  readonly maxAttempts?: number;
}

/** Credentials a local emulator accepts; it checks that they exist, never what they are. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/**
 * A DynamoDB client with short timeouts; with an endpoint, static dummy credentials. Each call
 * is an X-Ray subsegment of a traced invocation (`DynamoDB <Operation>`). The middleware stack is
 * resolved once per command (`cacheMiddleware`): add middleware before the first request.
 */
export function createDynamoDbClient(options: DynamoDbClientOptions): DynamoDBClient {
  const client = untracedClient(options);
  // The SDK's logger middleware walks every request's input and output through its redaction
  // filter for the client's logger even when that logs nothing, as ours does: the service logs
  // its own lines, so the walk is skipped.
  client.middlewareStack.remove('loggerMiddleware');
  // The user agent middleware builds and escapes the SDK's user agent string on every request;
  // DynamoDB answers the same without one (docs/decisions/2026-11-26-dynamodb-client-per-request.md).
  client.middlewareStack.remove('getUserAgentMiddleware');
  client.middlewareStack.add(
    (next, context) => (args) => {
      // `GetItemCommand` is the SDK's class; X-Ray and the AWS SDKs name the operation `GetItem`.
      const operation = context.commandName?.replace(/Command$/, '') ?? 'call';
      return traced(
        {
          name: `DynamoDB ${operation}`,
          namespace: 'aws',
          aws: { operation, table_name: tableOf(args.input) },
          outcome: outcomeOfAwsError,
        },
        () => next(args),
      );
    },
    { step: 'initialize', name: 'xraySubsegment' },
  );
  return client;
}

const tableOf = (input: unknown): string =>
  typeof input === 'object' && input !== null && 'TableName' in input
    ? String(input.TableName)
    : '';

/**
 * Decodes a binary attribute of a reply. The SDK's default first matches the whole base64 text
 * against a regular expression, a scan as long as the conversation's compressed history on every
 * load; DynamoDB sends well-formed base64, and a damaged attribute fails to decompress anyway
 * (`StoredItemMalformedError`).
 */
const decodeBase64 = (text: string): Uint8Array => {
  const bytes = Buffer.from(text, 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

function untracedClient(options: DynamoDbClientOptions): DynamoDBClient {
  const requestHandler = new BufferedHttpHandler({
    connectionTimeoutMs:
      options.connectionTimeoutMs ?? DYNAMODB_CLIENT_DEFAULTS.connectionTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? DYNAMODB_CLIENT_DEFAULTS.requestTimeoutMs,
  });
  const common = {
    region: options.region,
    maxAttempts: options.maxAttempts ?? DYNAMODB_CLIENT_DEFAULTS.maxAttempts,
    requestHandler,
    base64Decoder: decodeBase64,
    // Each request would otherwise build and sort the whole middleware stack again.
    cacheMiddleware: true,
  };
  if (options.endpoint === undefined) return new DynamoDBClient(common);
  return new DynamoDBClient({
    ...common,
    endpoint: options.endpoint,
    credentials: LOCAL_CREDENTIALS,
  });
}
