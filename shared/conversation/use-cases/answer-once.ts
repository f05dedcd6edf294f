/**
 * The request-id contract of both voice routes (api.md: a retry with the same id returns the same
 * response and does not call the model again); first of all, a missing model is a 503:
 * 1. the id is claimed first, so two copies of a request can never both reach the model;
 * 2. a copy that finds the id claimed gets the recorded outcome if the first copy has finished,
 *    else a "retry shortly"; another body with an id recorded in this conversation is refused
 *    (while the claim is live it may belong to the conversation this one replaced, so "retry");
 * 3. the claimant reads the conversation, replays an outcome recorded there, or runs the turn,
 *    whose save records the outcome with the history in one write;
 * 4. the claim is released whatever happened: a failed request's retry runs at once, and a
 *    claim never outlives what it guards (a conversation started again under the same id has no
 *    recorded outcome, so a claim left behind would answer its requests "in progress").
 * Without an id, the turn simply runs. Either way, an outcome recorded under `handoff` (what
 * continue/stream reached with the same tool results) is replayed instead.
 */
import type { ConversationRecord } from '../../ports/conversation-store';
import type { LanguageModel } from '../../ports/language-model';
import { RequestInProgressError } from '../errors';
import { recordedOutcome } from '../idempotency/recent-responses';
import type { RequestIdentity } from '../idempotency/request-identity';
import { latestUtterance } from '../prompt/turn-context';
import type { TurnOutcome } from '../turn/turn-outcome';
import type { ConversationDependencies } from './conversation-dependencies';
import { loadConversation, requireModel } from './load-conversation';

/** A turn's outcome and the utterance that opened the turn (on continue, the one continued). */
export type AnsweredTurn = TurnOutcome & { readonly utterance: string };

/** An answered turn, and whether it is the replay of an earlier answer to the same request. */
export type TurnAnswer = AnsweredTurn & { readonly replayed: boolean };

/**
 * How long past the turn deadline a claim holds. After the last model call the request still
 * saves, and the DynamoDB client may spend three attempts of up to four seconds on that write and
 * as many on reading it back; only then can a claim belong to a request that died (the Lambda
 * timeout, 28 s, ends before any deadline plus this).
 */
const CLAIM_MARGIN_MS = 30_000;

/** What a request is known by: where its outcome is recorded, what it claims, what it replays. */
export interface AnswerKeys {
  /** The node's request id and what it asked: its outcome is recorded and looked up here. */
  readonly identity: RequestIdentity | null;
  /** What is claimed while the turn runs, when not the identity (continue: the calls answered). */
  readonly claim?: RequestIdentity | null;
  /** An outcome continue/stream recorded for the same results, replayed instead of a turn. */
  readonly handoff?: RequestIdentity | null;
}

export async function answerOnce(
  dependencies: ConversationDependencies,
  conversation: { readonly nodeId: string; readonly conversationId: string },
  keys: AnswerKeys,
  turn: (record: ConversationRecord, model: LanguageModel) => Promise<AnsweredTurn>,
): Promise<TurnAnswer> {
  const { nodeId, conversationId } = conversation;
  const { identity } = keys;
  const handoff = keys.handoff ?? null;
  const claimed = keys.claim === undefined ? identity : keys.claim;
  const model = requireModel(dependencies.model);
  const load = () => loadConversation(dependencies.store, nodeId, conversationId);
  const recordedFor = (record: ConversationRecord) => {
    const recent = record.recentResponses;
    const own = identity === null ? null : recordedOutcome(recent, identity, record.version);
    return own ?? (handoff === null ? null : recordedOutcome(recent, handoff, record.version));
  };
  if (claimed === null) {
    const record = await load();
    const recorded = recordedFor(record);
    if (recorded !== null) return replay(recorded, record);
    return { ...(await turn(record, model)), replayed: false };
  }

  const { clock, settings, requestLocks } = dependencies;
  const claim = {
    nodeId,
    conversationId,
    ...claimed,
    heldUntil: clock.now() + settings.turnDeadlineMs + CLAIM_MARGIN_MS,
  };
  const acquired = await requestLocks.acquire(claim);
  if (!acquired.acquired) {
    const record = await load();
    const recorded = recordedFor(record);
    if (recorded === null) throw new RequestInProgressError(identity?.requestId ?? null);
    return replay(recorded, record);
  }
  try {
    const record = await load();
    const recorded = recordedFor(record);
    if (recorded !== null) return replay(recorded, record);
    return { ...(await turn(record, model)), replayed: false };
  } finally {
    // A claim that cannot be released (the database just failed) lapses at `heldUntil`; the
    // request's own outcome, success or error, is what the node must get.
    await requestLocks.release(claim, acquired.token).catch(() => undefined);
  }
}

/** A recorded answer replayed; one recorded before answers kept their utterance takes the latest. */
function replay(recorded: TurnOutcome & { utterance?: string }, record: ConversationRecord) {
  return { utterance: latestUtterance(record.messages), ...recorded, replayed: true };
}
