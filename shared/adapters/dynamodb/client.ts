import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { systemTiming, type Timing } from '../system/timing';
import { outcomeOfAwsError } from '../tracing/subsegment-outcome';
import { traced } from '../tracing/xray-subsegments';
import { BufferedHttpHandler } from './buffered-http-handler';
import type { AttemptObserver, DynamoDbClient } from './dynamodb-client';
import { JsonDynamoDbClient } from './json-client';
import type { AwsCredentials } from './sigv4-signer';

export type { AttemptObserver, DynamoDbClient } from './dynamodb-client';

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
  /**
   * `json` (the default): our own client (`JsonDynamoDbClient`) when it has credentials, the SDK's
   * otherwise; `sdk`: the AWS SDK's client always (the benchmark compares the two).
   */
  readonly implementation?: 'json' | 'sdk';
  /** Where AWS credentials are read from (`AWS_ACCESS_KEY_ID`, …); `process.env` by default. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Signing time, the backoff's randomness and waits of our own client; the system's by default. */
  readonly timing?: Timing;
  readonly onAttempt?: AttemptObserver;
}

/** Credentials a local emulator accepts; it checks that they exist, never what they are. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/**
 * A DynamoDB client with short timeouts; with an endpoint, static dummy credentials. Each call
 * is an X-Ray subsegment of a traced invocation (`DynamoDB <Operation>`).
 *
 * Our own client (`JsonDynamoDbClient`) when the credentials are known: the static local ones for
 * an endpoint, Lambda's from the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
 * `AWS_SESSION_TOKEN`). Without them (another credential source: a profile, SSO, a container's
 * role), or when the environment sets the SDK's endpoint or retry mode, the AWS SDK's client,
 * whose default chain finds them (docs/decisions/2026-11-26-dynamodb-json-client.md).
 */
export function createDynamoDbClient(options: DynamoDbClientOptions): DynamoDbClient {
  const environment = options.environment ?? process.env;
  const credentials =
    options.implementation === 'sdk'
      ? null
      : options.endpoint !== undefined
        ? LOCAL_CREDENTIALS
        : SDK_ENVIRONMENT_SETTINGS.some((name) => environment[name])
          ? null
          : credentialsOf(environment);
  const endpoint = options.endpoint ?? awsEndpoint(options.region);
  if (credentials === null || endpoint === null) return sdkDynamoDbClient(options);
  return new JsonDynamoDbClient({
    region: options.region,
    endpoint,
    credentials,
    requestHandler: requestHandlerOf(options),
    maxAttempts: options.maxAttempts ?? DYNAMODB_CLIENT_DEFAULTS.maxAttempts,
    timing: options.timing ?? systemTiming,
    ...(options.onAttempt === undefined ? {} : { onAttempt: options.onAttempt }),
    sdkClient: () => sdkDynamoDbClient(options),
  });
}

/**
 * The SDK's own settings of a client's endpoint, retries and credentials, which ours does not
 * read: when the environment sets one, the SDK's client is given, so the setting holds (and
 * setting one, say `AWS_RETRY_MODE=standard`, is how to have the SDK's client in Lambda). With
 * `AWS_PROFILE` the SDK's chain skips the environment's keys for the profile's.
 */
const SDK_ENVIRONMENT_SETTINGS = [
  'AWS_PROFILE',
  'AWS_ENDPOINT_URL_DYNAMODB',
  'AWS_ENDPOINT_URL',
  'AWS_USE_FIPS_ENDPOINT',
  'AWS_USE_DUALSTACK_ENDPOINT',
  'AWS_RETRY_MODE',
] as const;

/** Lambda's credentials: its role's, in the environment; null when they are not there. */
function credentialsOf(
  environment: Readonly<Record<string, string | undefined>>,
): AwsCredentials | null {
  const accessKeyId = environment.AWS_ACCESS_KEY_ID;
  const secretAccessKey = environment.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) return null;
  const sessionToken = environment.AWS_SESSION_TOKEN;
  return sessionToken
    ? { accessKeyId, secretAccessKey, sessionToken }
    : { accessKeyId, secretAccessKey };
}

/**
 * DynamoDB's regional endpoint, as the SDK's resolver gives it, for the regions of the commercial,
 * GovCloud and China partitions (the SDK's own patterns for them); null anywhere else (the
 * isolated partitions, the European Sovereign Cloud's `amazonaws.eu`, a partition yet to come),
 * where the SDK's client, which knows their domains, is given.
 */
export function awsEndpoint(region: string): string | null {
  if (COMMERCIAL_REGION.test(region) || GOVCLOUD_REGION.test(region)) {
    return `https://dynamodb.${region}.amazonaws.com`;
  }
  return CHINA_REGION.test(region) ? `https://dynamodb.${region}.amazonaws.com.cn` : null;
}

const COMMERCIAL_REGION = /^(us|eu|ap|sa|ca|me|af|il|mx)-\w+-\d+$/;
const GOVCLOUD_REGION = /^us-gov-\w+-\d+$/;
const CHINA_REGION = /^cn-\w+-\d+$/;

function requestHandlerOf(options: DynamoDbClientOptions): BufferedHttpHandler {
  return new BufferedHttpHandler({
    connectionTimeoutMs:
      options.connectionTimeoutMs ?? DYNAMODB_CLIENT_DEFAULTS.connectionTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? DYNAMODB_CLIENT_DEFAULTS.requestTimeoutMs,
  });
}

/**
 * The AWS SDK's client, made lean (docs/decisions/2026-11-26-dynamodb-json-client.md). The
 * middleware stack is resolved once per command (`cacheMiddleware`): middleware is added here,
 * before the first request.
 */
function sdkDynamoDbClient(options: DynamoDbClientOptions): DynamoDBClient {
  const client = untracedClient(options);
  // The SDK's logger middleware walks every request's input and output through its redaction
  // filter for the client's logger even when that logs nothing, as ours does: the service logs
  // its own lines, so the walk is skipped.
  client.middlewareStack.remove('loggerMiddleware');
  // The user agent middleware builds and escapes the SDK's user agent string on every request;
  // DynamoDB answers the same without one.
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
  const { onAttempt } = options;
  if (onAttempt !== undefined) {
    // After the retry middleware: once per attempt.
    client.middlewareStack.add(
      (next, context) => (args) => {
        onAttempt(
          context.commandName?.replace(/Command$/, '') ?? 'call',
          args.input as Readonly<Record<string, unknown>>,
        );
        return next(args);
      },
      { step: 'finalizeRequest', name: 'observeAttempts' },
    );
  }
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
  const common = {
    region: options.region,
    maxAttempts: options.maxAttempts ?? DYNAMODB_CLIENT_DEFAULTS.maxAttempts,
    requestHandler: requestHandlerOf(options),
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
