import { utf8Length } from '../history/utf8-length';
import type { ParsedArguments } from './extracted-reply';

/**
 * What one model reply may hold before it is read. A server that ignores `max_tokens` (or a model
 * configured with a huge one) can send megabytes; checked before any scan, so the work of
 * reading a reply is bounded by these, never by what was sent.
 */
export const REPLY_LIMITS = {
  /** UTF-8 bytes of the reply's text (think blocks included): about 16,000 tokens. */
  textBytes: 65_536,
  /** UTF-8 bytes of one call's arguments as sent (8x the 8 KiB the check reads, for blanks). */
  argumentsBytes: 65_536,
} as const;

/** The bytes of `text` when they are over `limit`, else null; O(1) when its length decides. */
export function bytesOver(text: string, limit: number): number | null {
  if (text.length > limit) return text.length; // at least one byte per UTF-16 unit
  if (text.length * 3 <= limit) return null; // at most three bytes per UTF-16 unit
  const bytes = utf8Length(text);
  return bytes > limit ? bytes : null;
}

/**
 * `text` cut to just past `limit` UTF-16 units when it is longer (a surrogate pair kept whole):
 * still over the limit, so it is never read and its error says "at least" as before, but the rest
 * is not carried on (cloned into the isolation worker, recorded). Applied where a reply arrives.
 */
export function cutPastLimit(text: string, limit: number): string {
  if (text.length <= limit + 1) return text;
  const code = text.charCodeAt(limit);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit + 2 : limit + 1);
}

/** Arguments not read because the text was over `REPLY_LIMITS.argumentsBytes`. */
export function argumentsTooLarge(bytes: number): ParsedArguments {
  return {
    ok: false,
    raw: '',
    reason: `at least ${bytes} bytes, over the limit of ${REPLY_LIMITS.argumentsBytes}`,
    tooLarge: true,
  };
}

/** Arguments of a call past the number a reply may hold: never read, the call is dropped. */
export const NOT_READ: ParsedArguments = Object.freeze({
  ok: false,
  raw: '',
  reason: 'not read: past the number of calls one reply may hold',
});
