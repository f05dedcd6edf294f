import { pipeline, Readable, Transform } from 'node:stream';
import { pieceLimit, REPLY_PIECES } from '../system/body-reads';

/** How much of an AWS SDK client's raw reply may be read. */
export interface ReplyLimits {
  /** The service, first in the error's message: `Polly`, `Transcribe`. */
  readonly service: string;
  /** What a success carries, for the message: `event stream`. */
  readonly success: string;
  /** Bytes of an error reply (a status of 300 or more): the SDK reads one whole to parse it. */
  readonly errorBytes: number;
  /** Bytes of a success; null leaves it to its own reader. */
  readonly successBytes: number | null;
}

/** A reply passed its limit, in bytes or in reads: nothing more of it was read. */
export class ReplyTooLargeError extends Error {
  override readonly name: string = 'ReplyTooLargeError';
}

/** The limit's error, wherever the SDK put the error it failed with (its causes). */
export function replyTooLargeIn(error: unknown): ReplyTooLargeError | null {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; depth += 1) {
    if (at instanceof ReplyTooLargeError) return at;
    at = at.cause;
  }
  return null;
}

/**
 * Replaces `response.body` (the raw HTTP reply a `deserialize` middleware sees, before the
 * SDK's deserializer reads it) with the same bytes counted as they arrive: past its limit in
 * bytes, or in reads (`pieceLimit`: a provider dripping bytes costs a read each), the body fails
 * with ReplyTooLargeError and nothing more of it is read.
 */
export function limitReplyBody(response: unknown, limits: ReplyLimits): void {
  const reply = response as { statusCode?: number; body?: unknown };
  const status = reply.statusCode ?? 0;
  const limitBytes = status >= 300 ? limits.errorBytes : limits.successBytes;
  if (limitBytes === null || !(reply.body instanceof Readable)) return;
  const pieces = pieceLimit(limitBytes);
  const what = status >= 300 ? `HTTP ${status} error reply` : limits.success;
  const tooLarge = (passed: string) =>
    new ReplyTooLargeError(`${limits.service}'s ${what} ${passed}`);
  let total = 0;
  let arrived = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      arrived += 1;
      if (total > limitBytes) done(tooLarge(`passed ${limitBytes} bytes`));
      else if (arrived > pieces) {
        const passed = `came in more than ${pieces} pieces (under ${REPLY_PIECES.minAverageBytes} bytes each on average)`;
        done(tooLarge(passed));
      } else done(null, chunk);
    },
  });
  pipeline(reply.body, counted, () => undefined);
  reply.body = counted;
}
