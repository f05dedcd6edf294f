import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { NodeAuthenticator } from './node-authenticator';
import type { RouteContext } from './route-request';

/** Puts the authenticated node where the route reads it; a bad key ends the request with 401. */
export function authenticateNode(
  authenticator: NodeAuthenticator,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, RouteContext> {
  return {
    before: async (request) => {
      const header = request.event.headers?.['x-api-key'] ?? undefined;
      request.context.node = await authenticator.authenticate(header, request.event);
    },
  };
}
