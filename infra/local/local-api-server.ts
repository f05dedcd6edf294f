import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProxyHandler } from '../../functions/http/dispatch-routes';
import { errorBody } from '../../functions/http/http-error';
import type { StreamingHandler } from '../../functions/http/stream-responses';
import { localLambdaContext, toApiGatewayEvent } from './api-gateway-event';
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

/** API Gateway's own payload limit; the handlers enforce the (smaller) documented one. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
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
  readonly log?: (line: string) => void;
}): Promise<LocalApiServer> {
  const routes = new Map<string, LocalRoute[]>();
  for (const route of options.routes)
    routes.set(route.path, [...(routes.get(route.path) ?? []), route]);
  const server = createServer((request, response) => {
    const startedAt = performance.now();
    serve(request, response, routes, {
      documents: options.documents ?? {},
      binaryMediaTypes: options.binaryMediaTypes ?? [],
      functionTimeoutMs: options.functionTimeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS,
    })
      .catch((error: unknown) => {
        options.log?.(`local server error: ${String(error)}`);
        if (!response.headersSent)
          sendJson(response, 500, errorBody('internal_error', 'Internal server error.'));
      })
      .finally(() => {
        const elapsed = (performance.now() - startedAt).toFixed(0);
        options.log?.(`${request.method} ${request.url} ${response.statusCode} ${elapsed} ms`);
      });
  });
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
  },
): Promise<void> {
  const { documents, functionTimeoutMs, binaryMediaTypes } = served;
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
  const body = await readBody(request);
  if (body === null)
    return sendJson(response, 413, errorBody('payload_too_large', 'The body is too large.'));
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

async function readBody(request: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
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
