import type { ChatMessage } from '../chat-message';

/**
 * Keeps the stored history under `maxCharacters` of JSON by dropping the oldest exchanges whole.
 * An exchange starts at a user message, so a tool call never loses its result and the history
 * always starts where a model expects it to. The newest exchange is always kept.
 */
export function boundHistory(
  messages: readonly ChatMessage[],
  maxCharacters: number,
): readonly ChatMessage[] {
  const sizes = messages.map((message) => JSON.stringify(message).length);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  let start = 0;
  while (total > maxCharacters) {
    const nextExchange = messages.findIndex(
      (message, index) => index > start && message.role === 'user',
    );
    if (nextExchange === -1) break;
    for (let index = start; index < nextExchange; index += 1) total -= sizes[index] ?? 0;
    start = nextExchange;
  }
  return start === 0 ? messages : messages.slice(start);
}

/** A node's tool output as stored and shown to the model: JSON text, cut at `maxCharacters`. */
export function toolOutputText(output: unknown, maxCharacters: number): string {
  const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null');
  if (text.length <= maxCharacters) return text;
  const cut = text.length - maxCharacters;
  return `${text.slice(0, maxCharacters)}… [${cut} characters cut]`;
}
