import type { RecordedResponse } from '../../ports/conversation-store';
import { RequestIdReusedError } from '../errors';
import type { TurnOutcome } from '../turn/turn-outcome';
import type { RequestIdentity } from './request-identity';

/** How many answered requests a conversation remembers: a node resends within seconds. */
export const RECENT_RESPONSES_KEPT = 8;
/** Their total size, so recorded answers never crowd the history out of the item. */
export const RECENT_RESPONSES_MAX_CHARACTERS = 32_000;

/**
 * The outcome recorded for this request id, or null when none is. The same id with another
 * fingerprint throws `RequestIdReusedError`.
 */
export function recordedOutcome(
  recent: readonly RecordedResponse[],
  identity: RequestIdentity,
): TurnOutcome | null {
  const recorded = recent.find((entry) => entry.requestId === identity.requestId);
  if (recorded === undefined) return null;
  if (recorded.fingerprint !== identity.fingerprint) {
    throw new RequestIdReusedError(identity.requestId);
  }
  return JSON.parse(recorded.outcome) as TurnOutcome;
}

/**
 * `recent` with this request's outcome added last. The oldest go first when there are more than
 * `RECENT_RESPONSES_KEPT` or they exceed `RECENT_RESPONSES_MAX_CHARACTERS`; the newest always stays.
 */
export function withRecordedResponse(
  recent: readonly RecordedResponse[],
  identity: RequestIdentity,
  outcome: TurnOutcome,
  now: number,
): readonly RecordedResponse[] {
  const added: RecordedResponse = {
    ...identity,
    outcome: JSON.stringify(outcome),
    recordedAt: now,
  };
  const kept: RecordedResponse[] = [added];
  let characters = added.outcome.length;
  for (let index = recent.length - 1; index >= 0; index -= 1) {
    const entry = recent[index];
    if (entry === undefined || entry.requestId === identity.requestId) continue;
    characters += entry.outcome.length;
    if (kept.length >= RECENT_RESPONSES_KEPT || characters > RECENT_RESPONSES_MAX_CHARACTERS) break;
    kept.unshift(entry);
  }
  return kept;
}
