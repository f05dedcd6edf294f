import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { CallingNode } from '../../../shared/conversation';
import type { NodeRateLimiter } from '../../../shared/ports';
import type { ApiRoute } from '../contract/api-routes';
import { handleErrors } from '../errors/handle-errors';
import { HttpError } from '../errors/http-error';
import type { RequestBody } from '../request-body/validate-request';
import { jsonResponse } from './json-response';
import { limitNodeRate } from './limit-node-rate';
import type { RequestAuthenticator } from './node-authenticator';
import { requestMetrics } from './request-metrics';
import type { EdgeResult, RouteContext, RouteHandler } from './route-request';

export interface RouteDependencies {
  readonly authenticator: RequestAuthenticator;
  /** Null when per-node limits are off (NODE_RATE_LIMIT=0). */
  readonly rateLimiter: NodeRateLimiter | null;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

export interface RouteInput<Body> {
  readonly body: Body;
  /** Lower-cased names (the normalizer ran). */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly node: CallingNode;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** What is left of the invocation (the Lambda timeout), in milliseconds. */
  readonly timeLeftMs: () => number;
  /** Aborts when the client goes away (a function that streams); never for a buffered one. */
  readonly clientGone: AbortSignal;
  /**
   * A fresh buffer with this request's dimensions, for what happens after the response left
   * (a streamed body failing midway): the caller publishes it.
   */
  readonly lateMetrics: () => Metrics;
}

/** A JSON answer. */
export interface JsonResult {
  readonly statusCode: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An answer in bytes (audio): all at once, or `AsyncIterable` chunks sent as they come (only
 * from a function that `streams`). `headers` carry its Content-Type.
 */
export interface BytesResult {
  readonly statusCode: number;
  readonly bytes: Uint8Array | AsyncIterable<Uint8Array>;
  readonly headers: Readonly<Record<string, string>>;
}

export type RouteResult = JsonResult | BytesResult;

/** The client-gone signal of a buffered function: API Gateway waits for its whole answer. */
const NEVER_GONE = new AbortController().signal;

/**
 * One edge stack for every route, in the order of the turn's first step: normalize headers,
 * authenticate the node from its key (before any body is read: an anonymous caller costs a hash
 * lookup, never a parse), count it against its rate limit, guard, parse and validate the JSON
 * body (routes with a body); then the
 * route; errors go through one table. The route sees a plain body and node, never the event.
 */
export function createRoute<Body>(options: {
  readonly route: ApiRoute;
  /** `jsonBody(schema)`: the route's body, typed from its schema; `NO_BODY` for a route without. */
  readonly body: RequestBody<Body>;
  readonly dependencies: RouteDependencies;
  readonly handle: (input: RouteInput<Body>) => Promise<RouteResult>;
}): RouteHandler {
  const { logger, metrics: functionMetrics, authenticator, rateLimiter } = options.dependencies;
  const { name } = options.route;
  const perRequest = requestMetrics(functionMetrics);
  // Every count of this request carries the route it was aimed at, the edge's refusals (401,
  // 429, 413, 415, a registry read failing) included: the dashboard and alarms read per route.
  const aimedAt: MiddlewareObj<APIGatewayProxyEvent, EdgeResult> = {
    before: ({ context }) => {
      perRequest.of(context).addDimension('route', name);
    },
  };
  const edge = middy<APIGatewayProxyEvent, EdgeResult, Error, RouteContext>({
    timeoutEarlyResponse,
  })
    .use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }))
    .use(perRequest.middleware)
    .use(aimedAt)
    .use(httpHeaderNormalizer())
    .use(authenticateNode(authenticator))
    .use(limitNodeRate(rateLimiter))
    .use([...options.body.middlewares]);
  return edge.use(handleErrors(logger, perRequest.of)).handler(async (event, context) => {
    const node = context.node;
    if (node === undefined) throw new Error('the authentication middleware did not run');
    const body = options.body.read(event);
    logger.appendKeys({ route: name, node_id: node.nodeId, conversation_id: conversationOf(body) });
    const metrics = perRequest.of(context);
    const startedAt = performance.now();
    const headers = event.headers ?? {};
    const query = event.queryStringParameters ?? {};
    const lateMetrics = () => {
      const late = perRequest.of({});
      late.addDimension('route', name);
      return late;
    };
    const timeLeftMs = () => Math.max(0, context.getRemainingTimeInMillis());
    const clientGone = context.clientGone ?? NEVER_GONE;
    const input = {
      body,
      headers,
      query,
      node,
      logger,
      metrics,
      lateMetrics,
      timeLeftMs,
      clientGone,
    };
    const result = await options.handle(input);
    // For a streamed body: the time to its first bytes, which the route awaited.
    const latencyMs = Math.round(performance.now() - startedAt);
    metrics.addMetric('latency', MetricUnit.Milliseconds, latencyMs);
    logger.info('request handled', { status: result.statusCode, latency_ms: latencyMs });
    return toEdgeResult(result);
  });
}

/**
 * Middy answers just before the function's own timeout (AWS would otherwise end the invocation
 * with no body): a 504 in the error format rather than its untyped `TimeoutError`, which no row
 * of the error table knows (a 500).
 */
function timeoutEarlyResponse(): never {
  throw new HttpError(
    504,
    'function_timeout',
    'The function ran out of time before it could answer; retry the request.',
  );
}

function toEdgeResult(result: RouteResult): EdgeResult {
  if (!('bytes' in result)) return jsonResponse(result.statusCode, result.body, result.headers);
  const { statusCode, headers, bytes } = result;
  if (bytes instanceof Uint8Array) {
    // As API Gateway expects a binary body from a buffered function: base64, flagged.
    const body = Buffer.from(bytes).toString('base64');
    return { statusCode, headers, body, isBase64Encoded: true };
  }
  return { statusCode, headers, body: '', stream: bytes };
}

function conversationOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('conversation_id' in body)) return undefined;
  return typeof body.conversation_id === 'string' ? body.conversation_id : undefined;
}

/** Puts the authenticated node where the route reads it; a bad key ends the request with 401. */
function authenticateNode(
  authenticator: RequestAuthenticator,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext> {
  return {
    before: async (request) => {
      const header = request.event.headers?.['x-api-key'] ?? undefined;
      request.context.node = await authenticator.authenticate(header, request.event);
    },
  };
}
