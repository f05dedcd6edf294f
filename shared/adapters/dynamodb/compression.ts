import { gunzipSync, gzipSync } from 'node:zlib';

/*
 * Synchronous on purpose: a Lambda serves one request at a time and the payloads are a few
 * hundred KB at most, where the thread-pool round trip of the async API costs more than it saves.
 */

/** UTF-8 text gzip-compressed, for a Binary attribute. */
export function compressText(text: string): Uint8Array {
  return gzipSync(Buffer.from(text, 'utf8'));
}

/** The text stored by `compressText`. Throws on bytes that are not gzip. */
export function decompressText(bytes: Uint8Array): string {
  return gunzipSync(bytes).toString('utf8');
}
