import type { ChatMessage } from '../../chat/chat-message';
import { utf8Length } from './utf8-length';

/**
 * Each message's JSON text and its UTF-8 bytes, written once per message object. A message never
 * changes once made, and a container keeps the history it read or wrote (KnownHistories), so a
 * turn measures and stores only the messages it added instead of the whole history each time
 * (the history is measured on every turn and written on every save).
 */
const texts = new WeakMap<ChatMessage, string>();
const sizes = new WeakMap<ChatMessage, number>();

/** `JSON.stringify(message)`. */
export function messageJson(message: ChatMessage): string {
  let text = texts.get(message);
  if (text === undefined) {
    text = JSON.stringify(message);
    texts.set(message, text);
  }
  return text;
}

/** The UTF-8 bytes of `messageJson(message)`. */
export function messageBytes(message: ChatMessage): number {
  let size = sizes.get(message);
  if (size === undefined) {
    size = utf8Length(messageJson(message));
    sizes.set(message, size);
  }
  return size;
}

/** `JSON.stringify(messages)`, from each message's own text. */
export function historyJson(messages: readonly ChatMessage[]): string {
  return `[${messages.map(messageJson).join(',')}]`;
}
