import type { ChatMessage, ToolCall } from '../../chat/chat-message';
import { isJsonObject } from '../../params';
import { failure, type Result, success } from '../../result';

/**
 * The stored history checked back into `ChatMessage`s. The JSON was written by this adapter, so a
 * mismatch means a bug or a layout change; the issue names the first bad message.
 */
export function parseStoredMessages(value: unknown): Result<ChatMessage[], string> {
  if (!Array.isArray(value)) return failure(['is not an array']);
  const messages: ChatMessage[] = [];
  for (const [index, entry] of value.entries()) {
    const message = parseMessage(entry);
    if (message === null) return failure([`message ${index} is not a chat message`]);
    messages.push(message);
  }
  return success(messages);
}

type Fields = Readonly<Record<string, unknown>>;

function parseMessage(value: unknown): ChatMessage | null {
  if (!isJsonObject(value)) return null;
  switch (value.role) {
    case 'system':
    case 'user':
      return typeof value.content === 'string'
        ? { role: value.role, content: value.content }
        : null;
    case 'assistant':
      return parseAssistantMessage(value);
    case 'tool':
      return typeof value.toolCallId === 'string' && typeof value.content === 'string'
        ? { role: 'tool', toolCallId: value.toolCallId, content: value.content }
        : null;
    default:
      return null;
  }
}

function parseAssistantMessage(value: Fields): ChatMessage | null {
  const content = value.content;
  if (content !== null && typeof content !== 'string') return null;
  if (!Array.isArray(value.toolCalls)) return null;
  const toolCalls: ToolCall[] = [];
  for (const entry of value.toolCalls) {
    if (
      !isJsonObject(entry) ||
      typeof entry.id !== 'string' ||
      typeof entry.name !== 'string' ||
      typeof entry.arguments !== 'string'
    ) {
      return null;
    }
    toolCalls.push({ id: entry.id, name: entry.name, arguments: entry.arguments });
  }
  return { role: 'assistant', content, toolCalls };
}
