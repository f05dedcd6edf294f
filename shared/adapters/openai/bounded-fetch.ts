import { ERROR_REPLY_LIMIT_BYTES, pieceLimit, REPLY_PIECES } from '../system/body-reads';
import { providerFetch } from './provider-fetch';

/**
 * The most bytes a chat completion's HTTP body may have before the SDK reads it: room for all a
 * turn can read of one reply, JSON-escaped, and no more. A turn reads at most 64 KiB of text
 * (language escapes to at most 3 bytes a UTF-8 byte: `\uXXXX` for a 3-byte CJK character is 2,
 * `\uD83D\uDE00` for a 4-byte emoji is 3; under 192 KiB), at most 8 KiB of arguments a request
 * (TURN_LIMITS; escaped, under 48 KiB) and the names of 32 calls: 256 KiB. The other calls' arguments are refused unread, so
 * a reply of 32 calls of 8 KiB was parsed (3 bodies of 260 KB, the attack bench's costliest row)
 * for one call's worth of checking. With the default MODEL_MAX_TOKENS (1,024 tokens of a few
 * bytes each) a real reply is a few KiB. A bigger body is not downloaded nor parsed, and the
 * model is asked again: parsing a body is the largest allocation of a hostile turn (2 MiB bodies
 * put the attack bench's worst generated requests at 80-88 ms of CPU, 1 MiB at 66-70 ms).
 */
export const REPLY_BODY_LIMIT_BYTES = 256 * 1024;

/** A response body cut off at the limit: the attempt failed as a malformed reply. */
export class ReplyBodyTooLargeError extends Error {
  override readonly name: string = 'ReplyBodyTooLargeError';
  constructor(
    readonly limitBytes: number,
    message = `the reply body is over ${limitBytes} bytes and was not read further`,
  ) {
    super(message);
  }
}

/** A body dripped in more pieces than its size allows: cut off as one over its limit. */
export class ReplyBodyTooFragmentedError extends ReplyBodyTooLargeError {
  override readonly name = 'ReplyBodyTooFragmentedError';
  constructor(limitBytes: number, pieces: number) {
    super(
      limitBytes,
      `the reply body came in more than ${pieces} pieces (under ${REPLY_PIECES.minAverageBytes} bytes each on average) and was not read further`,
    );
  }
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` for the SDK (over providerFetch, which bounds what comes before the body) whose response bodies fail with ReplyBodyTooLargeError once more than
 * `limitBytes` arrive (or at once when `content-length` says so); the rest is never read: the
 * stream is cancelled, which closes the connection. An error reply is held to
 * ERROR_REPLY_LIMIT_BYTES; a success to `limitBytes`, or, with `null` (a speech body, which its
 * reader bounds as the audio arrives), not here.
 */
export function boundedFetch(limitBytes: number | null, inner: Fetch = providerFetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const { body, status, statusText, headers } = response;
    if (body === null || nullBodyStatuses.has(status)) return response;
    const limit =
      status >= 400 ? Math.min(limitBytes ?? Infinity, ERROR_REPLY_LIMIT_BYTES) : limitBytes;
    if (limit === null) return response;
    // Announced too big: not one byte read. The error is the body's, not fetch's (which the SDK
    // would report as a connection failure), so the attempt fails like every oversized body.
    let received = Number(headers.get('content-length') ?? 0) > limit ? limit : 0;
    const pieces = pieceLimit(limit);
    let arrived = 0;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start(controller) {
          if (received > 0) controller.error(new ReplyBodyTooLargeError(limit));
        },
        transform(chunk, controller) {
          arrived += 1;
          if (arrived > pieces) {
            controller.error(new ReplyBodyTooFragmentedError(limit, pieces));
            return;
          }
          received += chunk.byteLength;
          if (received > limit) {
            // Errors both sides: the reader sees the error, the pipe cancels the source.
            controller.error(new ReplyBodyTooLargeError(limit));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status, statusText, headers });
  };
}

/** Statuses a Response may not be built with a body for. */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);
