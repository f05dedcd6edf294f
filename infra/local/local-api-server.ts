import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProxyHandler } from '../../functions/http/edge/dispatch-routes';
import type { StreamingHandler } from '../../functions/http/edge/stream-responses';
import { mapError } from '../../functions/http/errors/error-table';
import { errorBody } from '../../functions/http/errors/http-error';
import { payloadTooLarge } from '../../functions/http/request-body/body-size';
import type { CallingNode } from '../../shared/conversation';
import { localLambdaContext, toApiGatewayEvent } from './api-gateway-event';
import {
  BodyBudget,
  type BodyLimit,
  type BodyReading,
  type BodyShare,
  bodyLimitOf,
  bodyTooFragmented,
  closeWhenAnswered,
  guardConnections,
  isRefused,
  LOCAL_SERVER_LIMITS,
  type LocalServerLimits,
  type Refusal,
  RequestsInHand,
  readBody,
  refuseAfter,
  serverBusy,
  tooManyInHand,
} from './client-guard';
import type { HeaderAuthenticator } from './header-authenticator';
import { invokeStreaming, isStreamingHandler } from './lambda-response-streaming';
import { reachableHost } from './local-settings';

export interface LocalRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly functionName: string;
  /** A buffered function's handler, or a streaming one's (`awslambda.streamifyResponse`). */
  readonly handler: ProxyHandler | StreamingHandler;
}

export interface LocalApiServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** The context's time left when no timeout is given: API Gateway's default wait. */
const DEFAULT_FUNCTION_TIMEOUT_MS = 29_000;

/**
 * What `sam local start-api` does, without Docker: each request becomes the REST proxy event AWS
 * would send, goes to the same handler export, and the handler's result becomes the response.
 */
export async function startLocalApiServer(options: {
  readonly port: number;
  readonly host?: string;
  readonly routes: readonly LocalRoute[];
  readonly documents?: Readonly<Record<string, unknown>>;
  /** Bodies of these media types reach the handlers base64-encoded, as API Gateway sends them. */
  readonly binaryMediaTypes?: readonly string[];
  /** What the handlers' Lambda context counts down from (the deployed function's timeout). */
  readonly functionTimeoutMs?: number;
  /**
   * Checks X-API-Key from the headers before any body is read, with the authenticator the
   * handlers share (header-authenticator.ts); without it the handlers alone check it, after the body.
   */
  readonly authenticate?: HeaderAuthenticator;
  readonly limits?: Partial<LocalServerLimits>;
  readonly log?: (line: string) => void;
}): Promise<LocalApiServer> {
  const limits = { ...LOCAL_SERVER_LIMITS, ...options.limits };
  // Uploads and JSON bodies apart: a node's recordings never leave its commands without room.
  const bodies = {
    body: new BodyBudget(limits.bodyBytesHeld),
    upload: new BodyBudget(limits.bodyBytesHeld),
  };
  const busy = { body: serverBusy(limits, 'body'), upload: serverBusy(limits, 'upload') };
  const inHand = new RequestsInHand(limits.requestsPerConnection);
  const routes = new Map<string, LocalRoute[]>();
  for (const route of options.routes)
    routes.set(route.path, [...(routes.get(route.path) ?? []), route]);
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      maxHeaderSize: limits.headerBytes,
      connectionsCheckingInterval: limits.checkIntervalMs,
      // Node's own answer to a missing Host is a plain-text 400: refused in JSON in `serve`.
      requireHostHeader: false,
    },
    (request, response) => {
      const startedAt = performance.now();
      if (isRefused(request.socket)) return;
      if (!inHand.take(request, response)) {
        refuseRequest(response, tooManyInHand(limits));
        refuseAfter(request);
        return;
      }
      // Held until the request is done: its handler holds the body (and copies of it) till then.
      const shares = { body: bodies.body.share(), upload: bodies.upload.share() };
      serve(request, response, routes, shares, {
        documents: options.documents ?? {},
        binaryMediaTypes: options.binaryMediaTypes ?? [],
        functionTimeoutMs: options.functionTimeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS,
        authenticate: options.authenticate ?? null,
        writeStallTimeoutMs: limits.writeStallTimeoutMs,
        busy,
      })
        .catch((error: unknown) => {
          options.log?.(`local server error: ${String(error)}`);
          // A refused socket (a timeout while the body was read) was answered already.
          if (!response.headersSent && !isRefused(request.socket))
            sendJson(response, 500, errorBody('internal_error', 'Internal server error.'));
        })
        .finally(() => {
          shares.body.release();
          shares.upload.release();
          const elapsed = (performance.now() - startedAt).toFixed(0);
          options.log?.(`${request.method} ${request.url} ${response.statusCode} ${elapsed} ms`);
        });
    },
  );
  guardConnections(server, limits);
  // `Expect: 100-continue` reaches the handler above with no 100 sent yet: `serve` sends it only
  // once the key and the announced size pass, so a refused client is never asked for its body.
  server.on('checkContinue', (request, response) => server.emit('request', request, response));
  // Any other expectation: refused in JSON in `serve`, not in Node's plain text.
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    // What a client on this machine dials: `::` or `0.0.0.0` listen everywhere, loopback included.
    url: `http://${reachableHost(options.host ?? '127.0.0.1')}:${port}`,
    port,
    close: () => closeServer(server),
  };
}

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  routes: ReadonlyMap<string, readonly LocalRoute[]>,
  shares: Readonly<Record<BodyLimit['what'], BodyShare>>,
  served: {
    readonly documents: Readonly<Record<string, unknown>>;
    readonly binaryMediaTypes: readonly string[];
    readonly functionTimeoutMs: number;
    readonly authenticate: HeaderAuthenticator | null;
    readonly writeStallTimeoutMs: number;
    /** The answer when the bodies of its kind held at once leave no room for this one. */
    readonly busy: Readonly<Record<BodyLimit['what'], Refusal>>;
  },
): Promise<void> {
  const { documents, authenticate } = served;
  const refusal = requestRefusal(request);
  if (refusal !== null) return refuseRequest(response, refusal);
  const url = new URL(request.url ?? '/', 'http://localhost');
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (method === 'GET' && url.pathname === '/health')
    return sendJson(response, 200, { status: 'ok' });
  if (method === 'GET' && url.pathname in documents) {
    return sendJson(response, 200, documents[url.pathname]);
  }
  const candidates = routes.get(url.pathname) ?? [];
  if (candidates.length === 0)
    return sendJson(response, 404, errorBody('route_not_found', `No route ${url.pathname}.`));
  const route = candidates.find((candidate) => candidate.method === method);
  if (route === undefined) {
    const allowed = candidates.map((candidate) => candidate.method).join(', ');
    response.setHeader('Allow', allowed);
    return sendJson(
      response,
      405,
      errorBody('method_not_allowed', `Use ${allowed} on ${url.pathname}.`),
    );
  }
  // Who is asking, from the headers alone, checked once: the handler shares the authenticator
  // and gets its verdict (header-authenticator.ts). A refused key never costs the server its
  // body: the handler answers (and logs) the refusal as it would, from the headers, with no body.
  let vouch: ((event: object) => void) | null = null;
  if (authenticate !== null) {
    const checked = await checkKey(authenticate, request);
    // The registry could not answer (503 storage_unavailable): said at once, nothing read.
    if ('refusal' in checked) return refuseRequest(response, checked.refusal);
    vouch = (event) => authenticate.vouch(event, checked.node);
    if (checked.node === null) {
      closeWhenAnswered(response);
      return invoke(route, request, response, url, Buffer.alloc(0), { ...served, vouch });
    }
  }
  const limit = bodyLimitOf(url.pathname);
  const announced = Number(request.headers['content-length'] ?? 0);
  if (announced > limit.bytes) {
    return refuseRequest(response, mapError(payloadTooLarge(limit.bytes, announced, limit.what)));
  }
  // A body takes its bytes of the server's budget as they arrive: a size announced and never
  // sent holds none (four such uploads would otherwise hold every node's for the request timeout).
  const busy = served.busy[limit.what];
  if (continueExpected(request)) response.writeContinue();
  const read = await readBody(request, limit.bytes, shares[limit.what]);
  if (!read.ok) return refuseRequest(response, bodyRefusal(read, limit, busy));
  return invoke(route, request, response, url, read.body, { ...served, vouch });
}

/** The answer to a body that was not read whole. */
function bodyRefusal(
  read: Exclude<BodyReading, { ok: true }>,
  limit: BodyLimit,
  busy: Refusal,
): Refusal {
  if (read.reason === 'too_large')
    return mapError(payloadTooLarge(limit.bytes, limit.bytes + 1, limit.what));
  if (read.reason === 'too_fragmented') return bodyTooFragmented(read.pieces);
  return busy;
}

/**
 * What Node would answer itself in plain text, answered in the JSON error format instead: an
 * HTTP/1.1 request without `Host`, an `Expect` other than `100-continue`, or taken as Node
 * takes it: a transfer coding other than `chunked`.
 */
function requestRefusal(request: IncomingMessage): Refusal | null {
  if (request.httpVersion === '1.1' && request.headers.host === undefined)
    return { statusCode: 400, body: errorBody('invalid_http', 'An HTTP/1.1 request needs Host.') };
  // Node's parser takes any codings before a final `chunked` ("gzip, chunked") and hands on the
  // coded bytes as the body, which nothing here decodes (RFC 9112: 501 or refused, never read).
  const coding = request.headers['transfer-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked')
    return {
      statusCode: 400,
      body: errorBody(
        'invalid_http',
        `Transfer-Encoding: ${coding} is not served; send the body as it is, chunked or with Content-Length.`,
      ),
    };
  const expect = request.headers.expect;
  if (expect !== undefined && !continueExpected(request))
    return {
      statusCode: 417,
      body: errorBody('expectation_failed', `Expect: ${expect} is not served; send no Expect.`),
    };
  return null;
}

const continueExpected = (request: IncomingMessage): boolean =>
  request.headers.expect?.toLowerCase() === '100-continue';

/** The key's node (null: refused), or the answer when the registry could not say. */
async function checkKey(
  authenticate: HeaderAuthenticator,
  request: IncomingMessage,
): Promise<{ readonly node: CallingNode | null } | { readonly refusal: Refusal }> {
  const key = request.headers['x-api-key'];
  try {
    return { node: await authenticate.check(Array.isArray(key) ? key[0] : key) };
  } catch (error) {
    return { refusal: mapError(error) };
  }
}

/** Runs the route's handler on the request as API Gateway would, and sends what it answers. */
async function invoke(
  route: LocalRoute,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  body: Buffer,
  served: {
    readonly binaryMediaTypes: readonly string[];
    readonly functionTimeoutMs: number;
    /** Hands the handler the server's verdict on the key, for the event it is given. */
    readonly vouch: ((event: object) => void) | null;
    readonly writeStallTimeoutMs: number;
  },
): Promise<void> {
  const { binaryMediaTypes, functionTimeoutMs, vouch, writeStallTimeoutMs } = served;
  const event = toApiGatewayEvent({
    method: route.method,
    path: url.pathname,
    query: url.searchParams,
    headers: request.headers,
    body,
    sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
    binaryMediaTypes,
  });
  vouch?.(event);
  const context = localLambdaContext(route.functionName, functionTimeoutMs);
  if (isStreamingHandler(route.handler)) {
    // A client gone before the answer's first bytes closes the function's response stream too,
    // which tells the route (stream-responses.ts): a transcription stops with it.
    const clientGone = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) clientGone.abort();
    });
    const streamed = await invokeStreaming(route.handler, event, context, clientGone.signal).catch(
      (error: unknown) => {
        if (clientGone.signal.aborted) return null;
        throw error;
      },
    );
    return streamed === null ? undefined : sendStreamed(response, streamed, writeStallTimeoutMs);
  }
  const result = await route.handler(event, context);
  for (const [name, value] of Object.entries(result.headers ?? {}))
    response.setHeader(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    response.setHeader(name, values.map(String));
  }
  response.statusCode = result.statusCode;
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
  // A client that never reads a buffered answer (a WAV) would hold it in the socket for good.
  if (!response.writableFinished && !(await finishedWithin(response, writeStallTimeoutMs)))
    response.destroy();
}

/**
 * A streamed response as API Gateway's STREAM mode sends it: status and headers from the prelude,
 * then each chunk to the socket as the function writes it. A client that goes away closes the
 * function's response stream, which stops what it is streaming (stream-responses.ts); a function
 * failing midway cuts the connection, the only way left to say so once a status is sent.
 */
async function sendStreamed(
  response: ServerResponse,
  streamed: Awaited<ReturnType<typeof invokeStreaming>>,
  writeStallTimeoutMs: number,
): Promise<void> {
  response.statusCode = streamed.statusCode;
  for (const [name, value] of Object.entries(streamed.headers)) response.setHeader(name, value);
  response.once('close', () => {
    if (!response.writableFinished) streamed.cancel();
  });
  try {
    for await (const chunk of streamed.body) {
      if (response.destroyed) break;
      // A client that stops reading is cut: closing stops the producer (the close above).
      if (!response.write(chunk) && !(await drainedWithin(response, writeStallTimeoutMs))) {
        response.destroy();
        return;
      }
    }
  } catch {
    response.destroy();
    return;
  }
  response.end();
}

/** Whether `response` took more bytes within `ms` (false: it stalled, or closed). */
async function drainedWithin(response: ServerResponse, ms: number): Promise<boolean> {
  return waitFor(response, 'drain', ms);
}

/** Whether `response` was handed to the connection whole within `ms`. */
async function finishedWithin(response: ServerResponse, ms: number): Promise<boolean> {
  return waitFor(response, 'finish', ms);
}

/**
 * Whether `response` emitted `event` within `ms`, before it closed; leaves no listener or timer
 * behind. Plain listeners: every buffered answer waits here, and `events.once` with an abort
 * signal made an AbortError (its stack trace included) per request: 16-23 µs against 1-2 µs.
 */
function waitFor(response: ServerResponse, event: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = (outcome: boolean) => {
      clearTimeout(timer);
      response.off(event, onEvent);
      response.off('close', onClose);
      resolve(outcome);
    };
    const onEvent = () => settle(true);
    const onClose = () => settle(false);
    const timer = setTimeout(settle, ms, false);
    response.once(event, onEvent);
    response.once('close', onClose);
  });
}

/**
 * A refusal before the body was read: the error, then the connection closed, so the body the
 * client may still be sending is never read.
 */
function refuseRequest(response: ServerResponse, refusal: Refusal): void {
  for (const [name, value] of Object.entries(refusal.headers ?? {}))
    response.setHeader(name, String(value));
  closeWhenAnswered(response);
  sendJson(response, refusal.statusCode, refusal.body);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json');
  response.end(JSON.stringify(body));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
