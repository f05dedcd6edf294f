import { ERROR_REPLY_LIMIT_BYTES, pieceLimit, REPLY_PIECES } from '../system/body-reads';

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

/**
 * The count of a provider reply's body, kept by providerFetch as each piece (a read of the
 * socket) arrives: any reply but a success (300 or more: the SDK reads every other status's body
 * whole, as an error's message) is held to ERROR_REPLY_LIMIT_BYTES, a success to
 * the caller's limit, or not counted here with `null` (a speech body, which its reader bounds as
 * the audio arrives). Past its bytes, or its pieces (`pieceLimit`: a provider dripping bytes costs
 * a read each), the body fails with ReplyBodyTooLargeError and is not read further.
 */
export class ReplyBodyCount {
  readonly #limitBytes: number;
  readonly #pieces: number;
  #bytes = 0;
  #arrived = 0;

  private constructor(limitBytes: number) {
    this.#limitBytes = limitBytes;
    this.#pieces = pieceLimit(limitBytes);
  }

  /** The count of a reply of `status`; null when nothing is counted here. */
  static of(status: number, successLimitBytes: number | null): ReplyBodyCount | null {
    const limit =
      status >= 300
        ? Math.min(successLimitBytes ?? Number.POSITIVE_INFINITY, ERROR_REPLY_LIMIT_BYTES)
        : successLimitBytes;
    return limit === null ? null : new ReplyBodyCount(limit);
  }

  /**
   * Its refusal when the reply announces (`content-length`) more than the limit: not one byte is
   * read. The error is the body's, not fetch's (which the SDK would report as a lost connection),
   * so the attempt fails like every oversized body.
   */
  announced(contentLength: string | undefined): ReplyBodyTooLargeError | null {
    return Number(contentLength ?? 0) > this.#limitBytes
      ? new ReplyBodyTooLargeError(this.#limitBytes)
      : null;
  }

  /** Counts a piece of `bytes` that arrived: the error the body fails with past a limit. */
  add(bytes: number): ReplyBodyTooLargeError | null {
    this.#arrived += 1;
    if (this.#arrived > this.#pieces) {
      return new ReplyBodyTooFragmentedError(this.#limitBytes, this.#pieces);
    }
    this.#bytes += bytes;
    return this.#bytes > this.#limitBytes ? new ReplyBodyTooLargeError(this.#limitBytes) : null;
  }
}
