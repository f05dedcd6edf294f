/**
 * voice/command:
 * 1. load the conversation;
 * 2. close calls still pending from an earlier turn (the user moved on) with a "not executed"
 *    result, so the history stays valid for the model;
 * 3. find the last call the node executed of a command with refinable parameters: the turn
 *    context names it, so a follow-up such as "louder" can refine it;
 * 4. append the utterance with this turn's context (time, zone, the node's room, the speaker),
 *    and run the turn;
 * 5. when the turn calls that command again, report the call as a refinement (observed only: its
 *    arguments are the model's, validated as any other).
 * With a request id, a repeat replays the recorded answer (answer-once.ts); its refinement is
 * found again from the stored history the replay was read with (no second read).
 */

import type { ChatMessage } from '../../chat/chat-message';
import type { ConversationRecord } from '../../ports/conversation-store';
import { requestIdentity } from '../idempotency/request-identity';
import { withTurnContext } from '../prompt/turn-context';
import { historyBeforeTurn } from '../refinement/history-before-turn';
import { lastRefinableCall } from '../refinement/last-refinable-call';
import { type Refinement, refinementOf } from '../refinement/refinement-of';
import { type AnsweredTurn, answerOnce, type TurnAnswer } from './answer-once';
import type { CallingNode, ConversationDependencies } from './conversation-dependencies';
import { runConversationTurn } from './conversation-turn';
import { storedCommandSet } from './stored-command-set';

export type { Refinement } from '../refinement/refinement-of';

export interface VoiceCommandRequest {
  readonly node: CallingNode;
  readonly conversationId: string;
  readonly utterance: string;
  /** The node's request id (body `request_id` or `Idempotency-Key`), if it sent one. */
  readonly requestId?: string | null;
  /** The speaker the node recognized for this utterance (`speaker_user_id`), if it sent one. */
  readonly speakerUserId?: number | null;
}

/** A voice/command answer: the turn, and whether its call refines the last refinable call. */
export type VoiceCommandAnswer = TurnAnswer & { readonly refinement: Refinement | null };

const NOT_EXECUTED = JSON.stringify({
  status: 'not_executed',
  reason: 'The user said something new before this call returned.',
});

export async function handleVoiceCommand(
  dependencies: ConversationDependencies,
  request: VoiceCommandRequest,
): Promise<VoiceCommandAnswer> {
  const startedAt = dependencies.clock.now();
  // The speaker is part of what was asked (it is in the model's prompt); without one the
  // fingerprint is what it always was, so answers recorded before stay replayable.
  const speaker = request.speakerUserId ?? null;
  const asked = speaker === null ? request.utterance : { utterance: request.utterance, speaker };
  const identity = requestIdentity(request.requestId ?? null, 'voice_command', asked);
  const conversation = { nodeId: request.node.nodeId, conversationId: request.conversationId };
  return answerOnce(
    dependencies,
    conversation,
    { identity },
    async (record, model): Promise<AnsweredTurn & { readonly refinement: Refinement | null }> => {
      const closed: ChatMessage[] = record.pendingToolCalls.map((call) => ({
        role: 'tool',
        toolCallId: call.id,
        content: NOT_EXECUTED,
      }));
      const commandSet = storedCommandSet(record);
      const previous = commandSet === null ? null : lastRefinableCall(record.messages, commandSet);
      const context = {
        timezone: record.timezone,
        now: startedAt,
        lastRefinableCall: previous,
        room: record.room,
        // The utterance's own speaker wins over the one named at start (a cached guess).
        speakerUserId: request.speakerUserId ?? record.speakerUserId ?? null,
      };
      const user: ChatMessage = {
        role: 'user',
        content: withTurnContext(request.utterance, context),
      };
      const messages = [...record.messages, ...closed, user];
      const answered = await runConversationTurn(dependencies, model, record, {
        messages,
        toolResultsArrived: false,
        startedAt,
        identity,
        utterance: request.utterance,
      });
      return { ...answered, refinement: refinementOf(previous, answered.toolCalls) };
    },
    (recorded, record) => ({ ...recorded, refinement: replayedRefinement(recorded, record) }),
  );
}

/**
 * The refinement of a replayed answer, found as the turn found it: from the history before the
 * turn that made its calls, in the conversation the replay was read from.
 */
function replayedRefinement(answer: AnsweredTurn, record: ConversationRecord): Refinement | null {
  const [first] = answer.toolCalls;
  if (first === undefined) return null;
  const commandSet = storedCommandSet(record);
  if (commandSet === null) return null;
  const before = historyBeforeTurn(record.messages, first.id);
  if (before === null) return null;
  return refinementOf(lastRefinableCall(before, commandSet), answer.toolCalls);
}
