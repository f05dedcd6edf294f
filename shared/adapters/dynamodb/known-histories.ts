import type { ChatMessage } from '../../chat/chat-message';

/** Histories remembered: a container serves a few conversations at a time. */
const REMEMBERED = 16;

/**
 * The histories this container last wrote or read, by their stored bytes (gzip of their JSON):
 * a turn reads back the history its previous turn saved without gunzipping, parsing and checking
 * it again (the JSON of a long conversation's history is 100-160 KB; its gzip a few KB, cheap to
 * compare). The same bytes always hold the same history, so nothing else can change what a read
 * returns. The messages are frozen, since requests share them. The most recently used stay,
 * `REMEMBERED` of them.
 */
export class KnownHistories {
  readonly #byBytes = new Map<string, readonly ChatMessage[]>();

  /** The history stored as `bytes`, if this container knows it. */
  find(bytes: Uint8Array): readonly ChatMessage[] | undefined {
    const key = keyOf(bytes);
    const known = this.#byBytes.get(key);
    if (known !== undefined) this.#remember(key, known);
    return known;
  }

  /** Remembers (and freezes) `messages` as the history stored as `bytes`. */
  remember(bytes: Uint8Array, messages: readonly ChatMessage[]): readonly ChatMessage[] {
    return this.#remember(keyOf(bytes), deepFrozen(messages));
  }

  #remember(key: string, messages: readonly ChatMessage[]): readonly ChatMessage[] {
    this.#byBytes.delete(key);
    this.#byBytes.set(key, messages);
    if (this.#byBytes.size > REMEMBERED) {
      const oldest = this.#byBytes.keys().next();
      if (oldest.done !== true) this.#byBytes.delete(oldest.value);
    }
    return messages;
  }
}

/** The bytes as a string key: one byte per character, copied, never decoded. */
const keyOf = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

function deepFrozen(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  for (const message of messages) {
    if (Object.isFrozen(message)) continue;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls) Object.freeze(call);
      Object.freeze(message.toolCalls);
    }
    Object.freeze(message);
  }
  return Object.freeze(messages);
}
