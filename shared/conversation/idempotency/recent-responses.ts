import type { RecordedResponse } from '../../ports/conversation-store';
import { RequestIdReusedError } from '../errors';
import { RECORDED_ANSWERS_BYTES } from '../history/conversation-budget';
import { utf8Length } from '../history/utf8-length';
import type { TurnOutcome } from '../turn/turn-outcome';
import type { RequestIdentity } from './request-identity';

/** How many answered requests a conversation remembers: a node resends within seconds. */
export const RECENT_RESPONSES_KEPT = 8;
/** Their total size in UTF-8 bytes: the room the conversation budget keeps for them. */
export const RECENT_RESPONSES_MAX_BYTES = RECORDED_ANSWERS_BYTES;

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
 * `RECENT_RESPONSES_KEPT` or they exceed `RECENT_RESPONSES_MAX_BYTES`; the newest always stays.
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
  let bytes = utf8Length(added.outcome);
  for (let index = recent.length - 1; index >= 0; index -= 1) {
    const entry = recent[index];
    if (entry === undefined || entry.requestId === identity.requestId) continue;
    bytes += utf8Length(entry.outcome);
    if (kept.length >= RECENT_RESPONSES_KEPT || bytes > RECENT_RESPONSES_MAX_BYTES) break;
    kept.unshift(entry);
  }
  return kept;
}
