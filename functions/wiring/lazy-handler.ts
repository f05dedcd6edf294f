import type { ProxyHandler } from '../http/edge/dispatch-routes';
import { jsonResponse } from '../http/edge/json-response';
import { mapError } from '../http/errors/error-table';
import { type FunctionUses, productionDependencies } from './production-dependencies';
import type { ServiceDependencies } from './service-dependencies';
import type { SpeechWiring } from './speech-wiring';

/**
 * The `handler` export: wired once per container with the real dependencies on first use (the
 * model key may need a Secrets Manager call). A failed wiring is not kept, so the next
 * invocation tries again instead of the container staying broken; meanwhile callers get the
 * generic 500 body, and the reason goes to the log.
 */
export function lazyHandler(
  create: (dependencies: ServiceDependencies) => ProxyHandler,
  /** The function's route-table entry fits: `lazyHandler(create, apiFunctions.x)`. */
  options: FunctionUses = { callsModel: true },
  /** A function that hears or speaks passes its speech wiring (speech-wiring.ts); the others nothing. */
  speechWiring: SpeechWiring | null = null,
): ProxyHandler {
  let wired: Promise<ProxyHandler> | null = null;
  return async (event, context) => {
    wired ??= productionDependencies(options, speechWiring).then(create);
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
