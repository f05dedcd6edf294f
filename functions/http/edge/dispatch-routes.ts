import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { type ApiFunction, type RouteName, routesOf } from '../contract/api-routes';
import { errorBody } from '../errors/http-error';
import { jsonResponse } from './json-response';
import type { EdgeResult } from './route-request';

/**
 * A REST proxy event in, a proxy result out: a buffered function's `handler`, and what a
 * streaming one wraps (stream-responses.ts).
 */
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<EdgeResult>;

/**
 * One function's handler for every route it serves (api-routes.ts), chosen by the event's method
 * and resource. The handlers must be exactly the function's routes: a route without a handler,
 * or a handler without a route, is a wiring bug and throws when the function is built.
 */
export function dispatchRoutes(
  fn: ApiFunction,
  handlers: Partial<Record<RouteName, ProxyHandler>>,
): ProxyHandler {
  const routes = routesOf(fn);
  const served = new Set<string>(routes.map((route) => route.name));
  const stray = Object.keys(handlers).filter((name) => !served.has(name));
  const missing = routes.filter((route) => handlers[route.name as RouteName] === undefined);
  if (stray.length > 0 || missing.length > 0) {
    const names = [...stray, ...missing.map((route) => route.name)].join(', ');
    throw new Error(`${fn.name}: handlers and route table disagree on ${names}`);
  }
  const byPath = new Map(
    routes.map((route) => [route.path, { route, handler: handlers[route.name as RouteName] }]),
  );
  return async (event, context) => {
    // API Gateway names the resource; an event without one (a hand-written test event) has a path.
    const found = byPath.get(event.resource ?? event.path);
    if (found?.handler === undefined) {
      return jsonResponse(404, errorBody('route_not_found', `No route ${event.path}.`));
    }
    if (event.httpMethod !== found.route.method) {
      return jsonResponse(
        405,
        errorBody('method_not_allowed', `Use ${found.route.method} on ${found.route.path}.`),
        { Allow: found.route.method },
      );
    }
    return found.handler(event, context);
  };
}
