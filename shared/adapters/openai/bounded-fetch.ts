/**
 * The most bytes a chat completion's HTTP body may have before the SDK reads it. The reply reader
 * accepts at most 64 KiB of text and checks 8 KiB of arguments a call (32 calls read a reply):
 * JSON escaping at most doubles arguments (`"` becomes `\"`, 32 x 8 KiB: 512 KiB) and a text of
 * control characters could grow sixfold (`\u0001`: 384 KiB), so everything it can accept fits in
 * 1 MiB with the envelope. With the default MODEL_MAX_TOKENS (1,024 tokens of a few bytes each) a
 * real reply is a few KiB. Anything bigger could never be accepted whole, so it is not downloaded
 * nor parsed: parsing a body is the costliest allocation of a hostile turn (2 MiB bodies put the
 * attack bench's worst generated requests at 80-88 ms of CPU, 1 MiB at 66-70 ms).
 */
export const REPLY_BODY_LIMIT_BYTES = 1024 * 1024;

/** A response body cut off at the limit: the attempt failed as a malformed reply. */
export class ReplyBodyTooLargeError extends Error {
  override readonly name = 'ReplyBodyTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`the reply body is over ${limitBytes} bytes and was not read further`);
  }
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` for the SDK whose response bodies fail with ReplyBodyTooLargeError once more than
 * `limitBytes` arrive (or at once when `content-length` says so); the rest is never read: the
 * stream is cancelled, which closes the connection.
 */
export function boundedFetch(limitBytes: number, inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const { body, status, statusText, headers } = response;
    if (body === null || nullBodyStatuses.has(status)) return response;
    // Announced too big: not one byte read. The error is the body's, not fetch's (which the SDK
    // would report as a connection failure), so the attempt fails like every oversized body.
    let received = Number(headers.get('content-length') ?? 0) > limitBytes ? limitBytes : 0;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start(controller) {
          if (received > 0) controller.error(new ReplyBodyTooLargeError(limitBytes));
        },
        transform(chunk, controller) {
          received += chunk.byteLength;
          if (received > limitBytes) {
            // Errors both sides: the reader sees the error, the pipe cancels the source.
            controller.error(new ReplyBodyTooLargeError(limitBytes));
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
