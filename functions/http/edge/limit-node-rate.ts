import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type NodeRateLimiter, StorageUnavailableError } from '../../../shared/ports';
import type { RouteContext } from './route-request';

/** The node sent more requests than its fair share; it may retry after `retryAfterSeconds`. */
export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
  constructor(
    readonly nodeId: string,
    readonly limit: NodeRateLimiter['limit'],
    readonly retryAfterSeconds: number,
  ) {
    super(
      `At most ${limit.requests} requests per ${limit.windowSeconds} s per node; ` +
        `retry after ${retryAfterSeconds} s.`,
    );
  }
}

/**
 * Counts the authenticated node's request against its limit, shared by every container; over it,
 * a 429 with `Retry-After`. The limit guards fairness, not correctness: when the store cannot
 * count, the request goes through (and fails on its own if the store is really down).
 */
export function limitNodeRate(
  limiter: NodeRateLimiter | null,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext> {
  return {
    before: async (request) => {
      const node = request.context.node;
      if (limiter === null || node === undefined) return;
      const decision = await limiter.admit(node.nodeId).catch((error: unknown) => {
        if (error instanceof StorageUnavailableError) return { admitted: true } as const;
        throw error;
      });
      if (!decision.admitted) {
        throw new RateLimitedError(node.nodeId, limiter.limit, decision.retryAfterSeconds);
      }
    },
  };
}
