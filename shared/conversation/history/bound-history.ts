import type { ChatMessage } from '../../chat/chat-message';
import { cutToUtf8Length, utf8Length } from './utf8-length';

/**
 * Keeps the stored history under `maxBytes` (UTF-8 of its JSON) by dropping the oldest exchanges whole.
 * An exchange starts at a user message, so a tool call never loses its result and the history
 * always starts where a model expects it to. The newest exchange is always kept.
 */
export function boundHistory(
  messages: readonly ChatMessage[],
  maxBytes: number,
): readonly ChatMessage[] {
  const sizes = messages.map((message) => utf8Length(JSON.stringify(message)));
  let total = sizes.reduce((sum, size) => sum + size, 0);
  let start = 0;
  while (total > maxBytes) {
    const nextExchange = messages.findIndex(
      (message, index) => index > start && message.role === 'user',
    );
    if (nextExchange === -1) break;
    for (let index = start; index < nextExchange; index += 1) total -= sizes[index] ?? 0;
    start = nextExchange;
  }
  return start === 0 ? messages : messages.slice(start);
}

/**
 * A node's tool output as stored and shown to the model: JSON text, cut to `maxBytes` of UTF-8,
 * with a marker the model can read so it knows the output is incomplete.
 */
export function toolOutputText(output: unknown, maxBytes: number): string {
  const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null');
  const bytes = utf8Length(text);
  if (bytes <= maxBytes) return text;
  const kept = cutToUtf8Length(text, maxBytes);
  return `${kept}… [output cut: ${bytes - utf8Length(kept)} of ${bytes} bytes left out]`;
}
