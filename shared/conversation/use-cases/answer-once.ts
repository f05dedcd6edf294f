/**
 * The request-id contract of both voice routes (api.md: a retry with the same id returns the same
 * response and does not call the model again), and of a continue's results; first of all, a
 * missing model is a 503:
 * 1. the conversation is claimed and read in one request (the claim lives on the conversation
 *    item), so two copies of a request can never both reach the model;
 * 2. a copy that finds the conversation claimed gets the recorded outcome if the first copy has
 *    finished, else a "retry shortly" (409 request_in_progress); a request that finds another
 *    request's claim (the same words under another id included) gets 409 conversation_conflict
 *    before any model call, as it would have at its save; another body with an id recorded in
 *    this conversation is refused;
 * 3. the claimant replays an outcome recorded in the conversation, or runs the turn, whose save
 *    records the outcome with the history and ends the claim in one write;
 * 4. without a save (a replay, an error) the claim is released: a failed request's retry runs at
 *    once; a request id that got continue/stream's answer has it recorded under its own id by the
 *    same write. A claim never outlives its conversation: a start replaces it, unclaimed.
 * Without a claim (voice/command without an id), the turn simply runs. Either way, the outcome
 * recorded for the same tool results (`handoff`) in the exchange the conversation is at is
 * replayed, whichever request recorded it: continue/stream, or a continue with or without an id.
 */
import type { ConversationRecord, RecordedResponse } from '../../ports/conversation-store';
import { ConversationConflictError } from '../../ports/conversation-store';
import type { LanguageModel } from '../../ports/language-model';
import { ConversationNotFoundError, RequestInProgressError } from '../errors';
import { listedEntities } from '../home/listed-entities';
import {
  recordedForResults,
  recordedOutcome,
  withRecordedResponse,
} from '../idempotency/recent-responses';
import { isHandoffRecord, type RequestIdentity } from '../idempotency/request-identity';
import { latestUtterance } from '../prompt/turn-context';
import { outcomeForTheNode } from '../turn/outcome-for-the-node';
import type { TurnOutcome } from '../turn/turn-outcome';
import type { ConversationDependencies } from './conversation-dependencies';
import { loadConversation, requireModel } from './load-conversation';

/** A turn's outcome and the utterance that opened the turn (on continue, the one continued). */
export type AnsweredTurn = TurnOutcome & { readonly utterance: string };

/** An answered turn, and whether it is the replay of an earlier answer to the same request. */
export type TurnAnswer = AnsweredTurn & { readonly replayed: boolean };

/**
 * What `answerOnce` returns: the turn's own result as the turn returned it, or the replay of the
 * answer recorded earlier, completed by `completeReplay` with what the turn adds to an answer.
 */
export type AnsweredOnce<Turn extends AnsweredTurn> = Turn & { readonly replayed: boolean };

/**
 * What a turn adds to its answer (beyond what is recorded), found again for a replayed answer
 * from the conversation the replay was read from: no second read.
 */
export type CompleteReplay<Turn extends AnsweredTurn> = (
  recorded: AnsweredTurn,
  record: ConversationRecord,
) => Turn;

/**
 * How long past the turn deadline a claim holds. After the last model call the request still
 * saves, and the DynamoDB client may spend three attempts of up to four seconds on that write and
 * as many on reading it back; only then can a claim belong to a request that died (the Lambda
 * timeout, 28 s, ends before any deadline plus this).
 */
const CLAIM_MARGIN_MS = 30_000;

/** What a request is known by: where its outcome is recorded and claimed, what it replays. */
export interface AnswerKeys {
  /**
   * The request's id and what it asked: its outcome is recorded under it, and the conversation
   * claimed with its fingerprint while the turn runs. Null: nothing recorded, nothing claimed.
   */
  readonly identity: RequestIdentity | null;
  /**
   * The identity of a continue's results: an outcome recorded for the same results in this
   * exchange (by continue/stream, or by a continue with or without an id) is replayed.
   */
  readonly handoff?: RequestIdentity | null;
}

export async function answerOnce<Turn extends AnsweredTurn>(
  dependencies: ConversationDependencies,
  conversation: { readonly nodeId: string; readonly conversationId: string },
  keys: AnswerKeys,
  turn: (record: ConversationRecord, model: LanguageModel) => Promise<Turn>,
  completeReplay: CompleteReplay<Turn>,
): Promise<AnsweredOnce<Turn>> {
  const { nodeId, conversationId } = conversation;
  const { identity } = keys;
  const handoff = keys.handoff ?? null;
  const model = requireModel(dependencies.model);
  const load = () => loadConversation(dependencies.store, nodeId, conversationId);
  const replay = (
    recorded: TurnOutcome & { utterance?: string },
    record: ConversationRecord,
  ): AnsweredOnce<Turn> => {
    // One recorded before answers kept their utterance takes the latest; one recorded before
    // answers were read for the node (outcomeForTheNode) is read so now.
    const forTheNode =
      recorded.answeredByCommands === true
        ? recorded
        : outcomeForTheNode(recorded, listedEntities(record.home ?? null));
    const answer = { utterance: latestUtterance(record.messages), ...forTheNode };
    return { ...completeReplay(answer, record), replayed: true };
  };
  /** The outcome recorded for this request, under its own id or (`handedOff`) continue/stream's. */
  const recordedFor = (record: ConversationRecord) => {
    const recent = record.recentResponses;
    const own = identity === null ? null : recordedOutcome(recent, identity, record.version);
    if (own !== null) return { outcome: own, handedOff: false };
    const handed = handoff === null ? null : recordedForResults(recent, handoff, record.version);
    return handed === null ? null : { outcome: handed, handedOff: true };
  };
  if (identity === null) {
    const record = await load();
    const recorded = recordedFor(record);
    if (recorded !== null) return replay(recorded.outcome, record);
    return { ...(await turn(record, model)), replayed: false };
  }

  const { clock, settings, store } = dependencies;
  const claim = {
    ...identity,
    heldUntil: clock.now() + settings.turnDeadlineMs + CLAIM_MARGIN_MS,
  };
  const result = await store.claim(nodeId, conversationId, claim);
  const { record } = result;
  if (record === null) throw new ConversationNotFoundError(conversationId);
  if (!result.claimed) {
    const recorded = recordedFor(record);
    if (recorded !== null) return replay(recorded.outcome, record);
    const { holder } = result;
    // A copy of ours, whose retry gets the holder's answer: the same id (another body: refused
    // once recorded), or the same results (replayed whichever request answers them). The same
    // words under another id are another request: nothing would replay them, a conflict.
    const sameResults = handoff !== null && holder?.fingerprint === handoff.fingerprint;
    if (holder?.requestId === identity.requestId || sameResults) {
      throw new RequestInProgressError(
        isHandoffRecord(identity.requestId) ? null : identity.requestId,
      );
    }
    // Another request's turn holds the conversation: its save would make ours a conflict.
    throw new ConversationConflictError(nodeId, conversationId, record.version);
  }
  let saved = false;
  let adopted: readonly RecordedResponse[] | undefined;
  try {
    const recorded = recordedFor(record);
    if (recorded !== null) {
      // The node's own id gets continue/stream's answer: recorded under it too, as the release
      // writes it, so that its resends replay it after the conversation moves on.
      if (recorded.handedOff && identity.requestId !== handoff?.requestId) {
        const when = { now: clock.now(), conversationVersion: record.version, keepHandoffs: true };
        adopted = withRecordedResponse(record.recentResponses, identity, recorded.outcome, when);
      }
      return replay(recorded.outcome, record);
    }
    const answered = await turn(record, model);
    // The turn's save wrote the conversation without the claim: nothing left to release.
    saved = true;
    return { ...answered, replayed: false };
  } finally {
    // A claim that cannot be released (the database just failed) lapses at `heldUntil`, or goes
    // with the next save of the conversation; the request's own outcome, success or error, is
    // what the node must get.
    if (!saved) {
      await store.release(nodeId, conversationId, result.token, adopted).catch(() => undefined);
    }
  }
}
