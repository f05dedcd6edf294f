/**
 * The request-id contract of both voice routes (api.md: a retry with the same id returns the same
 * response and does not call the model again):
 * 1. an id already answered in this conversation replays the recorded outcome (another body with
 *    that id is refused);
 * 2. otherwise the id is claimed, so a repeat arriving while the turn runs is told to retry
 *    instead of starting a second model call;
 * 3. the conversation is read again under the claim (the first request may have finished in
 *    between), the turn runs and its save records the outcome with the history, in one write;
 * 4. the claim is released whatever happened. Without an id, the turn simply runs.
 */
import type { ConversationRecord } from '../../ports/conversation-store';
import { RequestIdReusedError, RequestInProgressError } from '../errors';
import { recordedOutcome } from '../idempotency/recent-responses';
import type { RequestIdentity } from '../idempotency/request-identity';
import type { TurnOutcome } from '../turn/turn-outcome';
import type { ConversationDependencies } from './conversation-dependencies';
import { loadConversation } from './conversation-turn';

/** A turn's outcome, and whether it is the replay of an earlier answer to the same request. */
export type TurnAnswer = TurnOutcome & { readonly replayed: boolean };

/** Past the deadline a claim can only belong to a request that died; this much later it lapses. */
const CLAIM_MARGIN_MS = 5_000;

export async function answerOnce(
  dependencies: ConversationDependencies,
  conversation: { readonly nodeId: string; readonly conversationId: string },
  identity: RequestIdentity | null,
  turn: (record: ConversationRecord) => Promise<TurnOutcome>,
): Promise<TurnAnswer> {
  const { nodeId, conversationId } = conversation;
  const record = await loadConversation(dependencies, nodeId, conversationId);
  if (identity === null) return { ...(await turn(record)), replayed: false };
  const recorded = recordedOutcome(record.recentResponses, identity);
  if (recorded !== null) return { ...recorded, replayed: true };

  const { clock, settings, requestLocks } = dependencies;
  const claim = {
    nodeId,
    conversationId,
    ...identity,
    heldUntil: clock.now() + settings.turnDeadlineMs + CLAIM_MARGIN_MS,
  };
  const claimed = await requestLocks.acquire(claim);
  if (!claimed.acquired) {
    if (claimed.fingerprint !== identity.fingerprint) {
      throw new RequestIdReusedError(identity.requestId);
    }
    throw new RequestInProgressError(identity.requestId);
  }
  try {
    const current = await loadConversation(dependencies, nodeId, conversationId);
    const recordedMeanwhile = recordedOutcome(current.recentResponses, identity);
    if (recordedMeanwhile !== null) return { ...recordedMeanwhile, replayed: true };
    return { ...(await turn(current)), replayed: false };
  } finally {
    // A claim that cannot be released (the database just failed) lapses at `heldUntil`; the
    // request's own outcome, success or error, is what the node must get.
    await requestLocks.release(claim).catch(() => undefined);
  }
}
