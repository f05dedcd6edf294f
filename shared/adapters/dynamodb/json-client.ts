import {
  DeleteItemCommand,
  type DynamoDBServiceException,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  type ServiceInputTypes,
  type ServiceOutputTypes,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { Timing } from '../system/timing';
import { outcomeOfAwsError } from '../tracing/subsegment-outcome';
import { traced } from '../tracing/xray-subsegments';
import type { BufferedHttpHandler } from './buffered-http-handler';
import type {
  AttemptObserver,
  DynamoDbClient,
  DynamoDbCommand,
  SendOptions,
} from './dynamodb-client';
import {
  DynamoDbReplyMalformedError,
  decodeBinaryAttributes,
  errorNameOf,
  type ResponseMetadata,
  replyDocument,
  requestBody,
  serviceException,
} from './json-protocol';
import { type AwsCredentials, SigV4Signer } from './sigv4-signer';

/**
 * The operations sent as JSON, by the SDK's command class: the item operations, whose inputs and
 * outputs are attribute values and plain fields. Any other command (CreateTable, DescribeTable,
 * whose outputs hold timestamps the SDK turns into dates) goes through the SDK's client.
 */
const JSON_OPERATIONS = new Map<unknown, string>([
  [GetItemCommand, 'GetItem'],
  [PutItemCommand, 'PutItem'],
  [UpdateItemCommand, 'UpdateItem'],
  [DeleteItemCommand, 'DeleteItem'],
  [QueryCommand, 'Query'],
  [ScanCommand, 'Scan'],
]);

/** The SDK's throttling error names (its standard retry mode): retried after a longer backoff. */
const THROTTLING_ERRORS = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'TransactionInProgressException',
  'Throttling',
  'TooManyRequestsException',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
]);
/** Statuses the SDK retries whatever the error's name. */
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);
/** Error names of timeouts: the handler's own, and DynamoDB's. */
const TIMEOUT_ERRORS = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
/** Node's codes for a connection that failed or went away: the request may be sent again. */
const SOCKET_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** Errors of a signature the server judged by its own clock. */
const CLOCK_SKEW_ERRORS = new Set([
  'InvalidSignatureException',
  'RequestExpired',
  'RequestInTheFuture',
  'RequestTimeTooSkewed',
  'SignatureDoesNotMatch',
  'AuthFailure',
]);
/** Below this the clocks agree as far as SigV4 cares (it allows 5 minutes): the SDK's threshold. */
const SKEW_WORTH_CORRECTING_MS = 240_000;
/** The SDK's standard backoff: full jitter over a base doubled per retry, at most 20 s. */
const BACKOFF_BASE_MS = 50;
const THROTTLING_BACKOFF_BASE_MS = 1_000;
const MAX_BACKOFF_MS = 20_000;

export interface JsonDynamoDbClientOptions {
  readonly region: string;
  /** `http://127.0.0.1:8000` for a local emulator, `https://dynamodb.<region>.amazonaws.com`. */
  readonly endpoint: string;
  readonly credentials: AwsCredentials;
  /** The keep-alive transport, with the request and connection timeouts. */
  readonly requestHandler: BufferedHttpHandler;
  readonly maxAttempts: number;
  /** The signing clock, the backoff's randomness and its waits. */
  readonly timing: Timing;
  readonly onAttempt?: AttemptObserver;
  /** The SDK's client, for any operation not sent as JSON; made when first needed. */
  readonly sdkClient: () => DynamoDbClient;
}

/**
 * DynamoDB's JSON protocol spoken directly (docs/decisions/2026-11-26-dynamodb-json-client.md):
 * the SDK's command objects in (their `input`, the operation from their class), the SDK's output
 * shapes and exception classes out, so the stores' code is the same for either client. Each
 * request is a SigV4-signed POST over the keep-alive `BufferedHttpHandler`; failures are retried
 * as the SDK's standard mode retries them, and a signature refused for the clock's sake is signed
 * again once by the server's clock.
 */
export class JsonDynamoDbClient implements DynamoDbClient {
  readonly #options: JsonDynamoDbClientOptions;
  readonly #url: URL;
  readonly #port: number | undefined;
  readonly #signer: SigV4Signer;
  #sdkClient: DynamoDbClient | undefined;
  /** Milliseconds to add to our clock for the server's: set from a reply that said it is off. */
  #clockOffsetMs = 0;

  constructor(options: JsonDynamoDbClientOptions) {
    this.#options = options;
    this.#url = new URL(options.endpoint);
    this.#port = this.#url.port === '' ? undefined : Number(this.#url.port);
    this.#signer = new SigV4Signer({
      credentials: options.credentials,
      region: options.region,
      service: 'dynamodb',
      host: this.#url.host,
    });
  }

  send<Input extends ServiceInputTypes, Output extends ServiceOutputTypes>(
    command: DynamoDbCommand<Input, Output>,
    options: SendOptions = {},
  ): Promise<Output> {
    const operation = JSON_OPERATIONS.get(command.constructor);
    if (operation === undefined) {
      this.#sdkClient ??= this.#options.sdkClient();
      return this.#sdkClient.send(command, options);
    }
    const input = command.input as Readonly<Record<string, unknown>>;
    return traced(
      {
        name: `DynamoDB ${operation}`,
        namespace: 'aws',
        aws: { operation, table_name: String(input.TableName ?? '') },
        outcome: outcomeOfAwsError,
      },
      () => this.#call(operation, input, options.abortSignal) as Promise<Output>,
    );
  }

  destroy(): void {
    this.#options.requestHandler.destroy();
    this.#sdkClient?.destroy();
  }

  async #call(
    operation: string,
    input: Readonly<Record<string, unknown>>,
    abortSignal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    const { maxAttempts, timing, onAttempt, requestHandler } = this.#options;
    const body = requestBody(input);
    const headers = {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${operation}`,
    };
    const contentLength = String(Buffer.byteLength(body));
    let totalRetryDelay = 0;
    let skewCorrected = false;
    for (let attempt = 1; ; attempt += 1) {
      onAttempt?.(operation, input);
      const signed = this.#signer.sign(
        { method: 'POST', path: this.#url.pathname, headers, body },
        timing.now() + this.#clockOffsetMs,
      );
      signed['content-length'] = contentLength;
      let failure: unknown;
      try {
        const { response } = await requestHandler.handle(
          {
            protocol: this.#url.protocol,
            hostname: this.#url.hostname,
            ...(this.#port === undefined ? {} : { port: this.#port }),
            method: 'POST',
            path: this.#url.pathname,
            headers: signed,
            body,
          },
          abortSignal === undefined ? {} : { abortSignal },
        );
        const metadata: ResponseMetadata = {
          httpStatusCode: response.statusCode,
          ...(response.headers['x-amzn-requestid'] === undefined
            ? {}
            : { requestId: response.headers['x-amzn-requestid'] }),
          attempts: attempt,
          totalRetryDelay,
        };
        const document = replyDocument(response.statusCode, response.body);
        if (response.statusCode >= 200 && response.statusCode < 300) {
          decodeBinaryAttributes(document);
          document.$metadata = metadata;
          return document;
        }
        const exception = serviceException(
          errorNameOf(document, response.headers),
          document,
          metadata,
        );
        if (
          !skewCorrected &&
          attempt < maxAttempts &&
          CLOCK_SKEW_ERRORS.has(exception.name) &&
          this.#correctClock(response.headers.date)
        ) {
          skewCorrected = true;
          continue;
        }
        failure = exception;
      } catch (error) {
        failure = error;
      }
      const retry = retryKind(failure);
      if (retry === null || attempt >= maxAttempts) throw failure;
      const base = retry === 'throttling' ? THROTTLING_BACKOFF_BASE_MS : BACKOFF_BASE_MS;
      const delay = Math.floor(
        timing.random() * Math.min(base * 2 ** (attempt - 1), MAX_BACKOFF_MS),
      );
      totalRetryDelay += delay;
      await timing.sleep(delay, abortSignal);
    }
  }

  /** Takes the server's clock from a reply's `Date` when ours is off by minutes; true if it was. */
  #correctClock(dateHeader: string | undefined): boolean {
    const serverMs = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
    if (Number.isNaN(serverMs)) return false;
    const offsetMs = serverMs - this.#options.timing.now();
    if (Math.abs(offsetMs - this.#clockOffsetMs) < SKEW_WORTH_CORRECTING_MS) return false;
    this.#clockOffsetMs = offsetMs;
    return true;
  }
}

/** Whether a failed attempt is tried again, and after which backoff; null when it is not. */
function retryKind(error: unknown): 'throttling' | 'transient' | null {
  if (!(error instanceof Error) || error.name === 'AbortError') return null;
  const status = statusOf(error);
  if (THROTTLING_ERRORS.has(error.name) || status === 429) return 'throttling';
  if (status !== undefined && TRANSIENT_STATUSES.has(status)) return 'transient';
  if (TIMEOUT_ERRORS.has(error.name)) return 'transient';
  // A modeled error DynamoDB marks retryable (ReplicatedWriteConflictException).
  if ((error as Partial<DynamoDBServiceException>).$retryable !== undefined) return 'transient';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && SOCKET_ERROR_CODES.has(code) ? 'transient' : null;
}

function statusOf(error: Error): number | undefined {
  if (error instanceof DynamoDbReplyMalformedError) return error.statusCode;
  return (error as Partial<DynamoDBServiceException>).$metadata?.httpStatusCode;
}
