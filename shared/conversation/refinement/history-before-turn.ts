import type { ChatMessage } from '../../chat/chat-message';

/**
 * The history as it stood before the turn that made the call `callId`: every message before the
 * user message that opened that turn. Null when the call, or that message, is no longer in
 * `messages` (the history bound dropped it). A replayed answer finds its refinement from here.
 */
export function historyBeforeTurn(
  messages: readonly ChatMessage[],
  callId: string,
): readonly ChatMessage[] | null {
  const callIndex = messages.findLastIndex(
    (message) =>
      message.role === 'assistant' && message.toolCalls.some((call) => call.id === callId),
  );
  if (callIndex < 0) return null;
  const userIndex = messages.findLastIndex(
    (message, index) => index < callIndex && message.role === 'user',
  );
  return userIndex < 0 ? null : messages.slice(0, userIndex);
}
