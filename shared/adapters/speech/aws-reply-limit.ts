import { pipeline, Readable, Transform } from 'node:stream';
import { pieceLimit, REPLY_PIECES } from '../system/body-reads';

/** How much of an AWS SDK client's raw reply may be read, and what passing it throws. */
export interface ReplyLimits {
  /** Bytes of an error reply (a status of 300 or more): the SDK reads one whole to parse it. */
  readonly errorBytes: number;
  /** Bytes of a success; null leaves it to its own reader. */
  readonly successBytes: number | null;
  /** `passed` says which limit: `passed 16384 bytes`, or `came in more than 80 pieces (...)`. */
  readonly tooLarge: (status: number, passed: string) => Error;
}

/**
 * Replaces `response.body` (the raw HTTP reply a `deserialize` middleware sees, before the
 * SDK's deserializer reads it) with the same bytes counted as they arrive: past its limit in
 * bytes, or in reads (`pieceLimit`: a provider dripping bytes costs a read each), the body fails
 * with `tooLarge` and nothing more of it is read.
 */
export function limitReplyBody(response: unknown, limits: ReplyLimits): void {
  const reply = response as { statusCode?: number; body?: unknown };
  const status = reply.statusCode ?? 0;
  const limitBytes = status >= 300 ? limits.errorBytes : limits.successBytes;
  if (limitBytes === null || !(reply.body instanceof Readable)) return;
  const pieces = pieceLimit(limitBytes);
  let total = 0;
  let arrived = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      arrived += 1;
      if (total > limitBytes) done(limits.tooLarge(status, `passed ${limitBytes} bytes`));
      else if (arrived > pieces) {
        const passed = `came in more than ${pieces} pieces (under ${REPLY_PIECES.minAverageBytes} bytes each on average)`;
        done(limits.tooLarge(status, passed));
      } else done(null, chunk);
    },
  });
  pipeline(reply.body, counted, () => undefined);
  reply.body = counted;
}
