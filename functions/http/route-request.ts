import type { MiddyfiedHandler } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

/** The node the edge authenticated, with the context the registry holds for it. */
export interface AuthenticatedNode {
  readonly nodeId: string;
  readonly timezone: string | null;
  readonly room: string | null;
}

/** The Lambda context, plus what the edge learned before the route runs. */
export interface RouteContext extends Context {
  node?: AuthenticatedNode;
}

export type RouteHandler = MiddyfiedHandler<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  RouteContext
>;
