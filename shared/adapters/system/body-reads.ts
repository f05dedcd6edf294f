// The limits every body read from the network keeps, whoever sends it: a model server, a speech
// provider (through fetch or an AWS SDK client), or a client of npm start's server.

/**
 * The most bytes of an error reply (a status of 400 or more) read, whatever the success limit:
 * an error says what went wrong in a line or two, and the SDK reads it whole into its message
 * (a speech server answering 500 with an endless body filled 1.7 GB in 6 s before this).
 */
export const ERROR_REPLY_LIMIT_BYTES = 16 * 1024;

/**
 * A reply may come in at most this many pieces (reads of the socket) beyond one per
 * `minAverageBytes` of its limit. Each piece costs the fetch stack 15-50 µs whatever
 * its size, so a server dripping a byte at a time cost 1.4 s of CPU per model attempt (256 KiB
 * in 3 s) before this; a real server's reply comes in reads of kilobytes (a TCP segment is
 * 1.4 KB), a few to a few hundred of them.
 */
export const REPLY_PIECES = { allowance: 64, minAverageBytes: 1024 } as const;

/** The most pieces a body of at most `limitBytes` may arrive in. */
export const pieceLimit = (limitBytes: number): number =>
  REPLY_PIECES.allowance + Math.ceil(limitBytes / REPLY_PIECES.minAverageBytes);
