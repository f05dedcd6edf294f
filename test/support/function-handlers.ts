import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { apiFunctions, apiRoutes } from '../../functions/http/contract/api-routes';
import type { ProxyHandler } from '../../functions/http/edge/dispatch-routes';
import type { StreamingHandler } from '../../functions/http/edge/stream-responses';
import type { ServiceDependencies } from '../../functions/wiring/service-dependencies';
import { invokeStreaming, isStreamingHandler } from '../../infra/local/lambda-response-streaming';
import type { LocalRoute } from '../../infra/local/local-api-server';
import { repositoryRoot } from '../../infra/stacks/voice-routes';

/** A function's handler as Lambda calls it: buffered, or streaming (`streams` in the table). */
export type FunctionHandler = ProxyHandler | StreamingHandler;

/**
 * Each function of the route table built from its entry's `createHandler` with `dependencies`:
 * the handler Lambda runs, every route of the function behind it, keyed by function id.
 */
export async function functionHandlers(
  dependencies: ServiceDependencies,
): Promise<ReadonlyMap<string, FunctionHandler>> {
  const handlers = new Map<string, FunctionHandler>();
  for (const fn of Object.values(apiFunctions)) {
    const entry: { createHandler: (dependencies: ServiceDependencies) => FunctionHandler } =
      await import(/* @vite-ignore */ pathToFileURL(join(repositoryRoot, fn.entry)).href);
    handlers.set(fn.id, entry.createHandler(dependencies));
  }
  return handlers;
}

/** Every route of the route table behind its function's handler, for the local server. */
export function localRoutes(handlers: ReadonlyMap<string, FunctionHandler>): LocalRoute[] {
  return apiRoutes.map((route) => {
    const handler = handlers.get(route.function.id);
    if (handler === undefined) throw new Error(`no handler for ${route.function.id}`);
    return { method: route.method, path: route.path, functionName: route.function.name, handler };
  });
}

/**
 * Calls a function's handler as Lambda would and buffers its answer: a streaming one through the
 * runtime's response stream (infra/local/lambda-response-streaming.ts), its body read to the end.
 */
export async function invokeBuffered(
  handler: FunctionHandler,
  event: APIGatewayProxyEvent,
  context: Context,
): Promise<APIGatewayProxyResult> {
  if (!isStreamingHandler(handler)) return handler(event, context);
  const streamed = await invokeStreaming(handler, event, context);
  const chunks: Buffer[] = [];
  for await (const chunk of streamed.body) chunks.push(chunk);
  const body = Buffer.concat(chunks);
  const contentType = String(streamed.headers['Content-Type'] ?? '');
  const text = contentType.startsWith('application/json');
  return {
    statusCode: streamed.statusCode,
    headers: { ...streamed.headers },
    body: body.toString(text ? 'utf8' : 'base64'),
    ...(text ? {} : { isBase64Encoded: true }),
  };
}
