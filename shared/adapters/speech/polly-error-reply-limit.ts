import { pipeline, Readable, Transform } from 'node:stream';
import type { PollyClient } from '@aws-sdk/client-polly';
import { ERROR_REPLY_LIMIT_BYTES } from '../openai/bounded-fetch';

/** A Polly error reply passed its limit: nothing more of it was read. */
export class PollyErrorReplyTooLargeError extends Error {
  override readonly name = 'PollyErrorReplyTooLargeError';
  constructor(
    readonly statusCode: number,
    readonly limitBytes: number,
  ) {
    super(`an HTTP ${statusCode} error reply of over ${limitBytes} bytes, not read further`);
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
      const response = result.response as { statusCode?: number; body?: unknown };
      const status = response.statusCode ?? 0;
      if (status >= 300 && response.body instanceof Readable) {
        response.body = countedBody(response.body, status, ERROR_REPLY_LIMIT_BYTES);
      }
      return result;
    },
    // Innermost: it sees the raw HTTP response before the deserializer reads it.
    { step: 'deserialize', priority: 'low', name: 'jccErrorReplyLimit' },
  );
}

/** `body` as it arrives, failing (and ending the body) past `limitBytes`. */
function countedBody(body: Readable, status: number, limitBytes: number): Readable {
  let total = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > limitBytes) done(new PollyErrorReplyTooLargeError(status, limitBytes));
      else done(null, chunk);
    },
  });
  pipeline(body, counted, () => undefined);
  return counted;
}
