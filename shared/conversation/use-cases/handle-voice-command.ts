/**
 * voice/command:
 * 1. load the conversation;
 * 2. close calls still pending from an earlier turn (the user moved on) with a "not executed"
 *    result, so the history stays valid for the model;
 * 3. append the utterance with this turn's context, and run the turn.
 */
import type { ChatMessage } from '../chat-message';
import { withTurnContext } from '../prompt/turn-context';
import type { TurnOutcome } from '../turn/turn-outcome';
import type { CallingNode, ConversationDependencies } from './conversation-dependencies';
import { loadConversation, runConversationTurn } from './conversation-turn';

export interface VoiceCommandRequest {
  readonly node: CallingNode;
  readonly conversationId: string;
  readonly utterance: string;
}

const NOT_EXECUTED = JSON.stringify({
  status: 'not_executed',
  reason: 'The user said something new before this call returned.',
});

export async function handleVoiceCommand(
  dependencies: ConversationDependencies,
  request: VoiceCommandRequest,
): Promise<TurnOutcome> {
  const startedAt = dependencies.clock.now();
  const record = await loadConversation(dependencies, request.node.nodeId, request.conversationId);
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
  return runConversationTurn(dependencies, record, messages, false, startedAt);
}
