import type { NodeAuthenticator } from '../http/edge/node-authenticator';

let shared: NodeAuthenticator | null = null;

/**
 * Where `npm start` puts the authenticator its server checks `X-API-Key` with, from the headers,
 * before it loads the handlers: every function's wiring then takes this one instead of building
 * its own, so a key is looked up, cached and refused once (one cache, one rejection floor). In
 * Lambda nothing is here and each container builds its own.
 */
export function shareNodeAuthenticator(authenticator: NodeAuthenticator | null): void {
  shared = authenticator;
}

export function sharedNodeAuthenticator(): NodeAuthenticator | null {
  return shared;
}
