import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type ApiRoute, apiRoutes } from '../../functions/http/contract/api-routes';
import { LIMITS } from '../../functions/http/contract/request-schemas';
import type { ProxyHandler } from '../../functions/http/edge/dispatch-routes';
import type { StreamingHandler } from '../../functions/http/edge/stream-responses';
import { mapError } from '../../functions/http/errors/error-table';
import { errorBody } from '../../functions/http/errors/http-error';
import { payloadTooLarge } from '../../functions/http/request-body/body-size';
import { localLambdaContext, toApiGatewayEvent } from './api-gateway-event';
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

/**
 * What a client may hold of the local server (reachable from the LAN with HOST=0.0.0.0):
 * docs/speech-limits.md, "The local server". Each refusal is answered in the JSON error format.
 */
export const LOCAL_SERVER_LIMITS = {
  /** From the connection to the end of the request headers (a slow-loris sending its headers). */
  headersTimeoutMs: 10_000,
  /** From the connection to the end of the body: a 4 MiB upload on a slow Wi-Fi link fits. */
  requestTimeoutMs: 30_000,
  /** How often the two timeouts above are checked: they fire up to this much late. */
  checkIntervalMs: 1_000,
  /**
   * Open connections from one address: a node holds one or two, `npm run load` 50 from loopback.
   * A keyless one costs no body (refused from its headers), a slow one at most the timeouts.
   */
  connectionsPerAddress: 64,
  /** Open connections in all. */
  connections: 256,
} as const;

export type LocalServerLimits = { readonly [Name in keyof typeof LOCAL_SERVER_LIMITS]: number };

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
   * Checks X-API-Key from the headers before any body is read (the handlers check it again);
   * without it the handlers alone check it, after the body.
   */
  readonly authenticate?: HeaderAuthenticator;
  readonly limits?: Partial<LocalServerLimits>;
  readonly log?: (line: string) => void;
}): Promise<LocalApiServer> {
  const limits = { ...LOCAL_SERVER_LIMITS, ...options.limits };
  const routes = new Map<string, LocalRoute[]>();
  for (const route of options.routes)
    routes.set(route.path, [...(routes.get(route.path) ?? []), route]);
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    (request, response) => {
      const startedAt = performance.now();
      if (refusedSockets.has(request.socket)) return;
      serve(request, response, routes, {
        documents: options.documents ?? {},
        binaryMediaTypes: options.binaryMediaTypes ?? [],
        functionTimeoutMs: options.functionTimeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS,
        authenticate: options.authenticate ?? null,
      })
        .catch((error: unknown) => {
          options.log?.(`local server error: ${String(error)}`);
          // A refused socket (a timeout while the body was read) was answered already.
          if (!response.headersSent && !refusedSockets.has(request.socket))
            sendJson(response, 500, errorBody('internal_error', 'Internal server error.'));
        })
        .finally(() => {
          const elapsed = (performance.now() - startedAt).toFixed(0);
          options.log?.(`${request.method} ${request.url} ${response.statusCode} ${elapsed} ms`);
        });
    },
  );
  limitConnections(server, limits);
  // A timeout or a request Node cannot parse: the JSON error format, never Node's plain text.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
    refuseSocket(socket, clientErrorAnswer(error, limits)),
  );
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
  served: {
    readonly documents: Readonly<Record<string, unknown>>;
    readonly binaryMediaTypes: readonly string[];
    readonly functionTimeoutMs: number;
    readonly authenticate: HeaderAuthenticator | null;
  },
): Promise<void> {
  const { documents, authenticate } = served;
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
  // Who is asking, from the headers alone: a refused key never costs the server its body. The
  // handler then answers (and logs) the refusal as it would, from the headers, with no body.
  const checked = authenticate === null ? null : await checkKey(authenticate, request);
  if (checked === 'refused') {
    closeWhenAnswered(response);
    return invoke(route, request, response, url, Buffer.alloc(0), served);
  }
  // The registry could not answer (503 storage_unavailable): said at once, nothing read.
  if (checked !== null && checked !== 'accepted') return refuseRequest(response, checked);
  const limit = bodyLimitOf(url.pathname);
  const announced = Number(request.headers['content-length'] ?? 0);
  if (announced > limit.bytes) {
    return refuseRequest(response, mapError(payloadTooLarge(limit.bytes, announced, limit.what)));
  }
  const body = await readBody(request, limit.bytes);
  if (body === null) {
    const refusal = mapError(payloadTooLarge(limit.bytes, limit.bytes + 1, limit.what));
    return refuseRequest(response, refusal);
  }
  return invoke(route, request, response, url, body, served);
}

/** Whether the key is a node's; a failure other than a refusal is its error answer. */
async function checkKey(
  authenticate: HeaderAuthenticator,
  request: IncomingMessage,
): Promise<'accepted' | 'refused' | ReturnType<typeof mapError>> {
  const key = request.headers['x-api-key'];
  try {
    await authenticate(Array.isArray(key) ? key[0] : key);
    return 'accepted';
  } catch (error) {
    const answer = mapError(error);
    return answer.statusCode === 401 ? 'refused' : answer;
  }
}

/** Runs the route's handler on the request as API Gateway would, and sends what it answers. */
async function invoke(
  route: LocalRoute,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  body: Buffer,
  served: { readonly binaryMediaTypes: readonly string[]; readonly functionTimeoutMs: number },
): Promise<void> {
  const { binaryMediaTypes, functionTimeoutMs } = served;
  const event = toApiGatewayEvent({
    method: route.method,
    path: url.pathname,
    query: url.searchParams,
    headers: request.headers,
    body,
    sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
    binaryMediaTypes,
  });
  const context = localLambdaContext(route.functionName, functionTimeoutMs);
  if (isStreamingHandler(route.handler)) {
    return sendStreamed(response, await invokeStreaming(route.handler, event, context));
  }
  const result = await route.handler(event, context);
  for (const [name, value] of Object.entries(result.headers ?? {}))
    response.setHeader(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    response.setHeader(name, values.map(String));
  }
  response.statusCode = result.statusCode;
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
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
): Promise<void> {
  response.statusCode = streamed.statusCode;
  for (const [name, value] of Object.entries(streamed.headers)) response.setHeader(name, value);
  response.once('close', () => {
    if (!response.writableFinished) streamed.cancel();
  });
  try {
    for await (const chunk of streamed.body) {
      if (response.destroyed) break;
      if (!response.write(chunk)) await drainedOrClosed(response);
    }
  } catch {
    response.destroy();
    return;
  }
  response.end();
}

/** Resolves when the socket takes more bytes or goes away; leaves no listener behind. */
async function drainedOrClosed(response: ServerResponse): Promise<void> {
  const done = new AbortController();
  const { signal } = done;
  await Promise.race([once(response, 'drain', { signal }), once(response, 'close', { signal })]);
  done.abort();
}

/** The most a route's body may hold, as its handler counts it (the route table says which). */
function bodyLimitOf(path: string): { readonly bytes: number; readonly what: 'body' | 'upload' } {
  const route: ApiRoute | undefined = apiRoutes.find((candidate) => candidate.path === path);
  const upload = route?.upload;
  return upload === undefined
    ? { bytes: LIMITS.bodyBytes, what: 'body' }
    : { bytes: upload.limitBytes, what: 'upload' };
}

/** The body, or null once more than `limitBytes` arrived (the rest is not read). */
async function readBody(request: IncomingMessage, limitBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Sockets answered and closing: a request parsed from them after that is not served. */
const refusedSockets = new WeakSet<Socket>();

/**
 * A refusal before the body was read: the error, then the connection closed, so the body the
 * client may still be sending is never read.
 */
function refuseRequest(response: ServerResponse, refusal: ReturnType<typeof mapError>): void {
  for (const [name, value] of Object.entries(refusal.headers ?? {}))
    response.setHeader(name, String(value));
  closeWhenAnswered(response);
  sendJson(response, refusal.statusCode, refusal.body);
}

/** The connection ends once `response` is sent, whatever the client still sends. */
function closeWhenAnswered(response: ServerResponse): void {
  response.setHeader('Connection', 'close');
  const socket = response.socket;
  response.once('finish', () => {
    if (socket !== null) closeAfterAnswer(socket);
  });
}

/** What a client error (a timeout, a request Node cannot parse) is answered with. */
function clientErrorAnswer(
  error: NodeJS.ErrnoException,
  limits: LocalServerLimits,
): ReturnType<typeof mapError> {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      statusCode: 408,
      body: errorBody(
        'request_timeout',
        'The request did not arrive in time: its headers within ' +
          `${limits.headersTimeoutMs / 1000} s, all of it within ` +
          `${limits.requestTimeoutMs / 1000} s.`,
      ),
    };
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { statusCode: 431, body: errorBody('headers_too_large', 'The headers are too large.') };
  return { statusCode: 400, body: errorBody('invalid_http', 'The request is not valid HTTP.') };
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  503: 'Service Unavailable',
};

/**
 * Answers on the socket itself (no request object exists, or Node gave up on it) in the JSON
 * error format, then closes the connection. Nothing is written when a response already began.
 */
function refuseSocket(socket: Socket, answer: ReturnType<typeof mapError>): void {
  refusedSockets.add(socket);
  if (socket.writable && socket.bytesWritten === 0) {
    const json = JSON.stringify(answer.body);
    const headers = [
      `HTTP/1.1 ${answer.statusCode} ${STATUS_TEXT[answer.statusCode] ?? 'Error'}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(json)}`,
      ...Object.entries(answer.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
      'Connection: close',
    ];
    socket.write(`${headers.join('\r\n')}\r\n\r\n${json}`);
  }
  closeAfterAnswer(socket);
}

/** How long a refused client has to read its answer before the connection is cut. */
const CLOSE_GRACE_MS = 1_000;

/**
 * Ends the connection without reading what the client still sends: the write side is closed
 * after the answer (the client reads it), reading stops, and the socket is destroyed soon after.
 */
function closeAfterAnswer(socket: Socket): void {
  refusedSockets.add(socket);
  socket.pause();
  socket.end();
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

/** Refuses connections beyond the limits, per address and in all, with a JSON 503. */
function limitConnections(server: Server, limits: LocalServerLimits): void {
  const perAddress = new Map<string, number>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const fromAddress = perAddress.get(address) ?? 0;
    if (open >= limits.connections || fromAddress >= limits.connectionsPerAddress) {
      const which = open >= limits.connections ? limits.connections : limits.connectionsPerAddress;
      refuseSocket(socket, {
        statusCode: 503,
        headers: { 'Retry-After': '1' },
        body: errorBody(
          'too_many_connections',
          `The server holds ${which} connections ${which === limits.connections ? 'in all' : 'from one address'}; close one or retry shortly.`,
          [
            {
              limit_connections: limits.connections,
              limit_connections_per_address: limits.connectionsPerAddress,
            },
          ],
        ),
      });
      return;
    }
    open += 1;
    perAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      open -= 1;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
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
