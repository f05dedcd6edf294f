import { canonicalJson, hashCanonicalJson } from '../../params';

/** A request the node made idempotent: its id, and a fingerprint of what it asked. */
export interface RequestIdentity {
  readonly requestId: string;
  readonly fingerprint: string;
}

/**
 * The identity of a request, or null when the node sent no id (then nothing is recorded).
 * The fingerprint covers the route and what the request asks, in canonical JSON, so key order
 * does not matter and the same id on the other voice route counts as another body.
 */
export function requestIdentity(
  requestId: string | null,
  route: 'voice_command' | 'continue',
  asked: unknown,
): RequestIdentity | null {
  if (requestId === null) return null;
  return { requestId, fingerprint: hashCanonicalJson(canonicalJson({ route, asked })) };
}
