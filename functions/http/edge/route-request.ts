import type { MiddyfiedHandler } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { CallingNode } from '../../../shared/conversation';

/** The Lambda context, plus what the edge learned before the route runs: the node, by its key. */
export interface RouteContext extends Context {
  node?: CallingNode;
  /**
   * Aborts when the client goes away before the answer is written: set by a function that
   * streams (stream-responses.ts), whose response stream closes then.
   */
  clientGone?: AbortSignal;
}

/**
 * A proxy result, or one whose body is still coming: `stream` yields the body's bytes as they are
 * produced (a function that `streams` writes them to Lambda's response stream as they come; see
 * stream-responses.ts). Only a route of such a function answers with a `stream`.
 */
export type EdgeResult = APIGatewayProxyResult & {
  readonly stream?: AsyncIterable<Uint8Array>;
};

export type RouteHandler = MiddyfiedHandler<APIGatewayProxyEvent, EdgeResult, Error, RouteContext>;
