import type { PollyClient } from '@aws-sdk/client-polly';
import { ERROR_REPLY_LIMIT_BYTES } from '../system/body-reads';
import { limitReplyBody, type ReplyLimits } from './aws-reply-limit';

/** A Polly error reply passed its limit: nothing more of it was read. */
export class PollyErrorReplyTooLargeError extends Error {
  override readonly name = 'PollyErrorReplyTooLargeError';
  constructor(
    readonly statusCode: number,
    /** Which limit it passed: `passed 16384 bytes`, or `came in more than 80 pieces (...)`. */
    readonly passed: string,
  ) {
    super(`an HTTP ${statusCode} error reply that ${passed}, not read further`);
  }
}

/**
 * Holds a Polly client's error replies (a status of 300 or more) to ERROR_REPLY_LIMIT_BYTES, counted as
 * they arrive: the SDK reads an error body whole before it parses it (Polly answering 500 with
 * an endless body filled 1.3 GB and took 7.5 s of CPU, past the call's deadline, before this).
 * A success is left to its reader (Polly's audio: the spoken-audio limit of speech-stream.ts).
 */
export function limitPollyErrorReplies(client: PollyClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      limitReplyBody(result.response, POLLY_REPLY_LIMITS);
      return result;
    },
    // Innermost: it sees the raw HTTP response before the deserializer reads it.
    { step: 'deserialize', priority: 'low', name: 'jccErrorReplyLimit' },
  );
}

const POLLY_REPLY_LIMITS: ReplyLimits = {
  errorBytes: ERROR_REPLY_LIMIT_BYTES,
  successBytes: null,
  tooLarge: (status, passed) => new PollyErrorReplyTooLargeError(status, passed),
};
