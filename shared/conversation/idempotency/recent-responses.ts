import type { RecordedResponse } from '../../ports/conversation-store';
import { RequestAnswerNotKeptError, RequestIdReusedError } from '../errors';
import { RECORDED_ANSWERS_BYTES } from '../history/conversation-budget';
import { utf8Length } from '../history/utf8-length';
import type { TurnOutcome } from '../turn/turn-outcome';
import { isHandoffRecord, type RequestIdentity } from './request-identity';

/**
 * The outcome of a request id whose answer a later, larger one pushed out of the bytes kept: the
 * id and fingerprint stay (a few hundred bytes), so that a resend is refused, not run again.
 */
const ANSWER_NOT_KEPT = '';

/** How many answered requests a conversation remembers: a node resends within seconds. */
export const RECENT_RESPONSES_KEPT = 8;
/** Their total size in UTF-8 bytes: the room the conversation budget keeps for them. */
export const RECENT_RESPONSES_MAX_BYTES = RECORDED_ANSWERS_BYTES;

/**
 * The outcome recorded for this request id in a conversation now at `conversationVersion`, or
 * null when none is. The same id with another fingerprint throws `RequestIdReusedError`. A stream
 * handoff's record counts only at the version its save produced: once anything else happened in
 * the conversation, the exchange it answered is over, and the same call ids and outputs (the
 * model's ids come back) answer another exchange.
 */
export function recordedOutcome(
  recent: readonly RecordedResponse[],
  identity: RequestIdentity,
  conversationVersion: number,
): TurnOutcome | null {
  const recorded = recent.find((entry) => entry.requestId === identity.requestId);
  if (recorded === undefined) return null;
  if (isHandoffRecord(recorded.requestId) && recorded.conversationVersion !== conversationVersion) {
    return null;
  }
  if (recorded.fingerprint !== identity.fingerprint) {
    throw new RequestIdReusedError(identity.requestId);
  }
  if (recorded.outcome === ANSWER_NOT_KEPT) throw new RequestAnswerNotKeptError(identity.requestId);
  return JSON.parse(recorded.outcome) as TurnOutcome;
}

/**
 * The outcome recorded for the same tool results (`handoff`, whose fingerprint is what these
 * results ask) in the exchange the conversation is at now, or null. Whichever request answered
 * them (continue/stream, a continue without an id, or one with the node's own id), the save that
 * recorded it produced `conversationVersion`: nothing has happened in the conversation since, so
 * these results are a copy of that request. A record from any other version never matches: call
 * ids are the model's own and come back in later exchanges.
 */
export function recordedForResults(
  recent: readonly RecordedResponse[],
  handoff: RequestIdentity,
  conversationVersion: number,
): TurnOutcome | null {
  const recorded = recent.find(
    (entry) =>
      entry.fingerprint === handoff.fingerprint &&
      entry.conversationVersion === conversationVersion &&
      entry.outcome !== ANSWER_NOT_KEPT,
  );
  return recorded === undefined ? null : (JSON.parse(recorded.outcome) as TurnOutcome);
}

/**
 * What a save keeps of `recent`: every stream handoff's record
 * goes (the exchange it answered has moved on, so it can never replay again), the node's
 * request ids stay.
 */
export function liveResponses(recent: readonly RecordedResponse[]): readonly RecordedResponse[] {
  return recent.filter((entry) => !isHandoffRecord(entry.requestId));
}

/**
 * `recent` with this request's outcome added last, tied to `conversationVersion` (the version
 * the save recording it produces); the records of earlier handoffs go (`liveResponses`), unless
 * `keepHandoffs` (no save: the conversation stays at the version they answer). The oldest go
 * first when there are more than `RECENT_RESPONSES_KEPT` or they exceed
 * `RECENT_RESPONSES_MAX_BYTES`; the newest always stays.
 */
export function withRecordedResponse(
  recent: readonly RecordedResponse[],
  identity: RequestIdentity,
  outcome: TurnOutcome,
  recorded: {
    readonly now: number;
    readonly conversationVersion: number;
    readonly keepHandoffs?: boolean;
  },
): readonly RecordedResponse[] {
  const added: RecordedResponse = {
    ...identity,
    outcome: JSON.stringify(outcome),
    recordedAt: recorded.now,
    conversationVersion: recorded.conversationVersion,
  };
  const kept: RecordedResponse[] = [added];
  let bytes = utf8Length(added.outcome);
  let full = false;
  const live = recorded.keepHandoffs === true ? recent : liveResponses(recent);
  for (let index = live.length - 1; index >= 0; index -= 1) {
    const entry = live[index];
    if (entry === undefined || entry.requestId === identity.requestId) continue;
    if (kept.length >= RECENT_RESPONSES_KEPT) break;
    bytes += utf8Length(entry.outcome);
    full ||= bytes > RECENT_RESPONSES_MAX_BYTES;
    if (!full) {
      kept.unshift(entry);
    } else if (!isHandoffRecord(entry.requestId)) {
      // A node's request id among the last answers is remembered without its answer: its resend
      // is told so (RequestAnswerNotKeptError), never run again. A handoff's record just goes.
      kept.unshift({ ...entry, outcome: ANSWER_NOT_KEPT });
    }
  }
  return kept;
}
