import type { ChatMessage } from '../../chat/chat-message';
import { LruMap } from '../system/lru-map';

/** Histories remembered: a container serves a few conversations at a time. */
const REMEMBERED = 16;

/**
 * The histories this container last wrote or read, by their stored bytes (their compressed JSON):
 * a turn reads back the history its previous turn saved without decompressing, parsing and
 * checking it again (the JSON of a long conversation's history is 100-160 KB; compressed a few KB, cheap to
 * compare). The same bytes always hold the same history, so nothing else can change what a read
 * returns. Requests share the messages, so they are frozen; each gets its own list of them (V8
 * copies a frozen array on its slow paths: `slice` took 20 times as long). The most recently used
 * stay, `REMEMBERED` of them.
 */
export class KnownHistories {
  readonly #byBytes = new LruMap<string, readonly ChatMessage[]>(REMEMBERED);

  /** The history stored as `bytes`, if this container knows it: a list of its own. */
  find(bytes: Uint8Array): ChatMessage[] | undefined {
    const known = this.#byBytes.get(keyOf(bytes));
    return known === undefined ? undefined : [...known];
  }

  /** Remembers `messages` (freezing them) as the history stored as `bytes`. */
  remember(bytes: Uint8Array, messages: readonly ChatMessage[]): readonly ChatMessage[] {
    this.#byBytes.set(keyOf(bytes), [...messages].map(frozen));
    return messages;
  }
}

/** The bytes as a string key: one byte per character, copied, never decoded. */
const keyOf = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** The message itself, frozen with its calls. */
function frozen(message: ChatMessage): ChatMessage {
  if (Object.isFrozen(message)) return message;
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) Object.freeze(call);
    Object.freeze(message.toolCalls);
  }
  return Object.freeze(message);
}
