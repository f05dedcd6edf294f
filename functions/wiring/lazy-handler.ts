import type { FunctionNeeds } from '../http/contract/api-functions';
import type { ProxyHandler } from '../http/edge/dispatch-routes';
import { jsonResponse } from '../http/edge/json-response';
import { mapError } from '../http/errors/error-table';
import { type FunctionWiring, functionDependencies } from './function-wiring';
import { processConfig } from './process-config';

/**
 * The `handler` export of a function's entry file: `lazyHandler({ function: apiFunctions.x,
 * create, ... })`, wired once per container with the real dependencies on first use (a key may
 * need a Secrets Manager call). A failed wiring is not kept, so the next invocation tries again
 * instead of the container staying broken; meanwhile callers get the generic 500 body, and the
 * reason goes to the log.
 */
export function lazyHandler<Needs extends FunctionNeeds>(
  wiring: FunctionWiring<Needs>,
): ProxyHandler {
  let wired: Promise<ProxyHandler> | null = null;
  return async (event, context) => {
    wired ??= wire(wiring);
    let handler: ProxyHandler;
    try {
      handler = await wired;
    } catch (error) {
      wired = null;
      console.error(
        JSON.stringify({ level: 'ERROR', message: 'wiring failed', error: String(error) }),
      );
      const mapped = mapError(error);
      return jsonResponse(mapped.statusCode, mapped.body);
    }
    return handler(event, context);
  };
}

async function wire(wiring: FunctionWiring): Promise<ProxyHandler> {
  return wiring.create(await functionDependencies(wiring, processConfig()));
}
