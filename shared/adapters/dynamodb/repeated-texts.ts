import { compressText, decompressText } from './compression';

/** Texts remembered each way: a container serves a few nodes' registrations and homes. */
const REMEMBERED = 16;

/**
 * The compressed and the decompressed form of texts a conversation stores unchanged on every
 * write (its command registration, about 20 KB, and its home): remembered per container, so a
 * turn does not compress and decompress them again at each read and save (about a millisecond a
 * turn of the fixture's registration). Compression is deterministic, so the remembered bytes are the bytes
 * compressing again would give. The most recently used stay, `REMEMBERED` each way.
 */
export class RepeatedTexts {
  readonly #compressed = new Map<string, Uint8Array>();
  readonly #decompressed = new Map<string, string>();

  compress(text: string): Uint8Array {
    const known = this.#compressed.get(text);
    if (known !== undefined) return remember(this.#compressed, text, known);
    const bytes = compressText(text);
    remember(this.#decompressed, keyOf(bytes), text);
    return remember(this.#compressed, text, bytes);
  }

  /** The text of `bytes`; throws as `decompressText` does on bytes it cannot decompress. */
  decompress(bytes: Uint8Array): string {
    const key = keyOf(bytes);
    const known = this.#decompressed.get(key);
    if (known !== undefined) return remember(this.#decompressed, key, known);
    const text = decompressText(bytes);
    remember(this.#compressed, text, bytes);
    return remember(this.#decompressed, key, text);
  }
}

/** The bytes as a string key: one byte per character, copied, never decoded. */
const keyOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

function remember<Key, Value>(map: Map<Key, Value>, key: Key, value: Value): Value {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
  return value;
}
