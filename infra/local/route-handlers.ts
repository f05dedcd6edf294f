import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProxyHandler } from '../../functions/http/edge/dispatch-routes';
import type { StreamingHandler } from '../../functions/http/edge/stream-responses';
import { repositoryRoot } from '../stacks/voice-routes';
import { installLambdaStreamingGlobals } from './lambda-response-streaming';
import type { LocalRoute } from './local-api-server';

type FunctionHandler = ProxyHandler | StreamingHandler;

/** Every route of the route table with the handler export its function's Lambda runs. */
export async function loadRoutes(): Promise<LocalRoute[]> {
  // The streaming functions call `awslambda.streamifyResponse` as they load, as in Lambda.
  installLambdaStreamingGlobals();
  // Imported only now, after the environment points at the local database; each function's
  // entry once, as each is its own Lambda.
  const { apiRoutes } = await import('../../functions/http/contract/api-routes');
  const entries = [...new Set(apiRoutes.map((route) => route.function.entry))];
  const loaded = new Map<string, FunctionHandler>();
  for (const entry of entries) {
    const module: { handler: FunctionHandler } = await import(
      pathToFileURL(join(repositoryRoot, entry)).href
    );
    loaded.set(entry, module.handler);
  }
  return apiRoutes.map((route) => ({
    method: route.method,
    path: route.path,
    functionName: route.function.name,
    handler: loaded.get(route.function.entry) as FunctionHandler,
  }));
}

/** The OpenAPI document the local server serves at /openapi.json. */
export async function loadOpenApi(): Promise<unknown> {
  const { buildOpenApiDocument } = await import('../../functions/http/openapi/openapi-document');
  return buildOpenApiDocument();
}
