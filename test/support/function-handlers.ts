import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { apiFunctions } from '../../functions/http/api-routes';
import type { ProxyHandler } from '../../functions/http/dispatch-routes';
import type { ServiceDependencies } from '../../functions/wiring/service-dependencies';
import { repositoryRoot } from '../../infra/stacks/voice-routes';

/**
 * Each function of the route table built from its entry's `createHandler` with `dependencies`:
 * the handler Lambda runs, every route of the function behind it, keyed by function id.
 */
export async function functionHandlers(
  dependencies: ServiceDependencies,
): Promise<ReadonlyMap<string, ProxyHandler>> {
  const handlers = new Map<string, ProxyHandler>();
  for (const fn of Object.values(apiFunctions)) {
    const entry: { createHandler: (dependencies: ServiceDependencies) => ProxyHandler } =
      await import(/* @vite-ignore */ pathToFileURL(join(repositoryRoot, fn.entry)).href);
    handlers.set(fn.id, entry.createHandler(dependencies));
  }
  return handlers;
}
