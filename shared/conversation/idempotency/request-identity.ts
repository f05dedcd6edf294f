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

/**
 * Holds a space, which a node's request id never does (printable ASCII without spaces, checked at
 * the edge): a node's id can never read as a derived one, lose its replay at the next save, or
 * claim the record of some results.
 */
const HANDOFF_PREFIX = 'stream handoff ';

/**
 * What continue/stream records its outcome under, so that the blocking continue the node sends
 * next with the same results (api.md: after a 202, or a 200 it could not play) replays that
 * outcome instead of running the turn again. The node sends no request id on these, so the id
 * is derived from what was asked (the pending calls answered and their results): the same
 * results find the record, other results cannot collide with it. Call ids are the model's own
 * and come back in later exchanges, so such a record is tied to the exchange it answered
 * (`isHandoffRecord`, recent-responses.ts): it replays only while the conversation is as its
 * save left it.
 */
export function handoffIdentity(asked: unknown): RequestIdentity {
  const fingerprint = hashCanonicalJson(canonicalJson({ route: 'continue', asked }));
  return { requestId: `${HANDOFF_PREFIX}${fingerprint.slice(0, 48)}`, fingerprint };
}

/** True for the record of a stream handoff (`handoffIdentity`), not of a node's request id. */
export function isHandoffRecord(requestId: string): boolean {
  return requestId.startsWith(HANDOFF_PREFIX);
}
