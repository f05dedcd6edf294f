/**
 * voice/command:
 * 1. load the conversation;
 * 2. close calls still pending from an earlier turn (the user moved on) with a "not executed"
 *    result, so the history stays valid for the model;
 * 3. append the utterance with this turn's context, and run the turn.
 * With a request id, a repeat replays the recorded answer (answer-once.ts).
 */
import type { ChatMessage } from '../chat-message';
import { requestIdentity } from '../idempotency/request-identity';
import { withTurnContext } from '../prompt/turn-context';
import { answerOnce, type TurnAnswer } from './answer-once';
import type { CallingNode, ConversationDependencies } from './conversation-dependencies';
import { runConversationTurn } from './conversation-turn';

export interface VoiceCommandRequest {
  readonly node: CallingNode;
  readonly conversationId: string;
  readonly utterance: string;
  /** The node's request id (body `request_id` or `Idempotency-Key`), if it sent one. */
  readonly requestId?: string | null;
}

const NOT_EXECUTED = JSON.stringify({
  status: 'not_executed',
  reason: 'The user said something new before this call returned.',
});

export async function handleVoiceCommand(
  dependencies: ConversationDependencies,
  request: VoiceCommandRequest,
): Promise<TurnAnswer> {
  const startedAt = dependencies.clock.now();
  const identity = requestIdentity(request.requestId ?? null, 'voice_command', request.utterance);
  const conversation = { nodeId: request.node.nodeId, conversationId: request.conversationId };
  return answerOnce(dependencies, conversation, identity, (record) => {
    const closed: ChatMessage[] = record.pendingToolCalls.map((call) => ({
      role: 'tool',
      toolCallId: call.id,
      content: NOT_EXECUTED,
    }));
    const user: ChatMessage = {
      role: 'user',
      content: withTurnContext(request.utterance, { timezone: record.timezone, now: startedAt }),
    };
    const messages = [...record.messages, ...closed, user];
    return runConversationTurn(dependencies, record, {
      messages,
      toolResultsArrived: false,
      startedAt,
      identity,
      utterance: request.utterance,
    });
  });
}
