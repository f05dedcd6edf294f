import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';

/** The parts of the AWS SDK's `HttpRequest` a DynamoDB request uses (its JSON protocol POSTs). */
interface SdkHttpRequest {
  readonly protocol: string;
  readonly hostname: string;
  readonly port?: number;
  readonly method: string;
  readonly path: string;
  readonly query?: Readonly<Record<string, string | readonly string[] | null>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** The AWS SDK's `HttpResponse`, as its deserializers read it: any object of this shape. */
interface SdkHttpResponse {
  readonly statusCode: number;
  readonly reason?: string;
  readonly headers: Record<string, string>;
  /** The whole reply: the SDK reads a `Uint8Array` body as it is, without a stream collector. */
  readonly body: Uint8Array;
}

export interface BufferedHttpHandlerOptions {
  /** A new connection not established within this fails the attempt (`TimeoutError`). */
  readonly connectionTimeoutMs: number;
  /** An attempt not answered in full within this fails (`TimeoutError`, code `ETIMEDOUT`). */
  readonly requestTimeoutMs: number;
}

/** Sockets each agent keeps per host: the SDK's own handler's default. */
const MAX_SOCKETS = 50;

/**
 * The transport of both DynamoDB clients: our own (`JsonDynamoDbClient` sends each attempt
 * through `handle`) and the AWS SDK's (its `requestHandler` option). One keep-alive request per
 * attempt, the whole reply read into one buffer. The SDK's
 * `NodeHttpHandler` arms three timers and several listeners per request and hands the reply on
 * as a stream the SDK then collects; a DynamoDB reply is a small JSON document the SDK parses
 * whole, so this does only what the client needs. Failures keep the shapes the SDK's retry
 * strategy classifies: Node's socket errors as they are (`ECONNREFUSED`, `ECONNRESET`: retried)
 * and timeouts as `TimeoutError` (retried), the abort of a caller's signal as `AbortError` (not).
 *
 * Node's own timers: one per attempt; the SDK's backoff between attempts uses them too.
 */
export class BufferedHttpHandler {
  /** Read by the SDK (its host header middleware): this handler speaks HTTP/1.1. */
  readonly metadata = { handlerProtocol: 'http/1.1' } as const;
  readonly #options: BufferedHttpHandlerOptions;
  readonly #httpAgent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  readonly #httpsAgent = new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });

  constructor(options: BufferedHttpHandlerOptions) {
    this.#options = options;
  }

  handle(
    request: SdkHttpRequest,
    options: { readonly abortSignal?: unknown } = {},
  ): Promise<{ response: SdkHttpResponse }> {
    // The SDK passes on the caller's signal; the service's callers pass Node's own or none.
    const abortSignal =
      options.abortSignal instanceof AbortSignal ? options.abortSignal : undefined;
    if (abortSignal?.aborted === true) {
      return Promise.reject(new DynamoDbRequestAbortedError(abortSignal));
    }
    return new Promise((resolve, reject) => {
      const secure = request.protocol === 'https:';
      const outgoing = (secure ? https : http).request(
        {
          agent: secure ? this.#httpsAgent : this.#httpAgent,
          protocol: request.protocol,
          // `[::1]` in a URL is `::1` to the resolver, as the SDK's own handler has it.
          hostname: request.hostname.replace(/^\[(.*)\]$/, '$1'),
          ...(request.port === undefined ? {} : { port: request.port }),
          method: request.method,
          path: pathWithQuery(request),
          headers: request.headers,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', fail);
          incoming.on('end', () => {
            settle();
            resolve({
              response: {
                statusCode: incoming.statusCode ?? 0,
                ...(incoming.statusMessage === undefined ? {} : { reason: incoming.statusMessage }),
                headers: joinedHeaders(incoming.headers),
                body:
                  chunks.length === 1 && chunks[0] !== undefined
                    ? chunks[0]
                    : Buffer.concat(chunks),
              },
            });
          });
        },
      );
      const requestTimer = setTimeout(() => {
        outgoing.destroy(
          new DynamoDbRequestTimeoutError(
            `no complete reply within ${this.#options.requestTimeoutMs} ms`,
            'ETIMEDOUT',
          ),
        );
      }, this.#options.requestTimeoutMs);
      let connectionTimer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        outgoing.destroy(new DynamoDbRequestAbortedError(abortSignal));
      };
      function settle(): void {
        clearTimeout(requestTimer);
        clearTimeout(connectionTimer);
        abortSignal?.removeEventListener('abort', onAbort);
      }
      function fail(error: Error): void {
        settle();
        reject(error);
      }
      outgoing.on('error', fail);
      outgoing.once('socket', (socket: Socket) => {
        // A kept-alive socket is connected already; only a new one can hang while connecting.
        if (!socket.connecting) return;
        connectionTimer = setTimeout(() => {
          outgoing.destroy(
            new DynamoDbRequestTimeoutError(
              `no connection within ${this.#options.connectionTimeoutMs} ms`,
            ),
          );
        }, this.#options.connectionTimeoutMs);
        socket.once('connect', () => clearTimeout(connectionTimer));
      });
      abortSignal?.addEventListener('abort', onAbort, { once: true });
      outgoing.end(bodyOf(request.body));
    });
  }

  /** Part of the SDK's handler interface, for its client extensions; none are used. */
  updateHttpClientConfig(): void {}

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  /** Closes the kept-alive sockets (the SDK's `client.destroy()` calls this). */
  destroy(): void {
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
  }
}

function pathWithQuery(request: SdkHttpRequest): string {
  const query = request.query ?? {};
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    for (const one of value === null ? [null] : typeof value === 'string' ? [value] : value) {
      const key = encodeURIComponent(name);
      pairs.push(one === null ? key : `${key}=${encodeURIComponent(one)}`);
    }
  }
  return pairs.length === 0 ? request.path : `${request.path}?${pairs.join('&')}`;
}

/** The SDK serializes a DynamoDB request to a string or bytes, never to a stream. */
function bodyOf(body: unknown): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new TypeError('BufferedHttpHandler sends a string or bytes body only');
}

/** Node gives a repeated header (`set-cookie`) as an array; the SDK reads one string per name. */
function joinedHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const joined: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) joined[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return joined;
}

/**
 * An attempt that took too long. Named `TimeoutError`, the name the SDK's retry strategy treats
 * as transient (its own handler's timeouts carry it too), so the attempt is retried.
 */
export class DynamoDbRequestTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  /** `ETIMEDOUT` for a reply that took too long, as the SDK's own handler sets it. */
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(`DynamoDB request: ${message}`);
    this.code = code;
  }
}

/** The caller's signal aborted the attempt. Named `AbortError`, which the SDK never retries. */
export class DynamoDbRequestAbortedError extends Error {
  override readonly name = 'AbortError';
  constructor(signal: AbortSignal | undefined) {
    super('DynamoDB request aborted', { cause: signal?.reason });
  }
}
