import type { ChatMessage } from '../../chat/chat-message';
import { cutToJsonTextBytes, jsonTextBytes } from './json-text-length';
import { messageBytes } from './message-json';

/**
 * Keeps the stored history under `maxBytes` (UTF-8 of its JSON) by dropping the oldest exchanges whole.
 * An exchange starts at a user message, so a tool call never loses its result and the history
 * always starts where a model expects it to. The newest exchange is always kept.
 */
export function boundHistory(
  messages: readonly ChatMessage[],
  maxBytes: number,
): readonly ChatMessage[] {
  const sizes = messages.map(messageBytes);
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

/** Room kept for the cut marker: `… [output cut: N of M bytes left out]` with 7-digit counts. */
const CUT_MARKER_BYTES = 64;

/**
 * A node's tool output as stored and shown to the model: JSON text of at most `maxBytes` as
 * stored (`jsonTextBytes`: escapes counted, so the share a turn reserves for a result holds),
 * cut with a marker the model can read so it knows the output is incomplete.
 */
export function toolOutputText(output: unknown, maxBytes: number): string {
  const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null');
  const bytes = jsonTextBytes(text);
  if (bytes <= maxBytes) return text;
  const kept = cutToJsonTextBytes(text, Math.max(maxBytes - CUT_MARKER_BYTES, 0));
  return `${kept}… [output cut: ${bytes - jsonTextBytes(kept)} of ${bytes} bytes left out]`;
}
