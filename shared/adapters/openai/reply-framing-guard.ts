import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { REPLY_PIECES } from '../system/body-reads';

/**
 * The most bytes of a reply's framing beyond its body's own size: chunk-size lines, their
 * extensions, trailers. A real server's framing is a few bytes a chunk (`3c0\r\n`, `\r\n`), far
 * less than the chunk itself.
 */
export const REPLY_FRAMING_ALLOWANCE_BYTES = 64 * 1024;

/**
 * A reply whose framing outgrew its body (provider-fetch.ts): the attempt failed as a malformed
 * reply, retried at once like a body over its limit.
 */
export class ReplyFramingRefusedError extends Error {
  override readonly name = 'ReplyFramingRefusedError';
}

/**
 * Counts what arrives on the socket once a reply's headers are whole, against the body bytes the
 * parser made of it. The byte limits count the body; the bytes around it were not counted: a
 * server sending a chunk-size line of endless zeros (`0000...`, which the parser takes) had it
 * parsed until the deadline, 7.1 s of CPU in 45 s, with no body byte to count; 8 KiB chunk
 * extensions around 2-byte chunks, 0.8 s. Refused (`ReplyFramingRefusedError`, the response
 * destroyed) when the framing passes REPLY_FRAMING_ALLOWANCE_BYTES and the body's size, or when
 * more reads than `REPLY_PIECES.allowance`, and one per read that carried body, carried none.
 * Listens after the parser (which listens first), so each read is parsed when it is counted.
 */
export function guardReplyFraming(response: IncomingMessage): void {
  const socket: Socket = response.socket;
  let wire = 0;
  let delivered = 0;
  let parsedBefore = 0;
  let bodyReads = 0;
  let emptyReads = 0;
  const onBody = (chunk: Buffer) => {
    delivered += chunk.byteLength;
  };
  const onRead = (chunk: Buffer) => {
    wire += chunk.byteLength;
    // What the parser made of the reads so far: handed on, or waiting in the response's buffer.
    const parsed = delivered + response.readableLength;
    if (parsed > parsedBefore) bodyReads += 1;
    else emptyReads += 1;
    parsedBefore = parsed;
    const framing = wire - parsed;
    if (framing > REPLY_FRAMING_ALLOWANCE_BYTES + parsed) {
      refuse(`the reply's framing passed ${framing} bytes around ${parsed} bytes of body`);
    } else if (emptyReads > REPLY_PIECES.allowance + bodyReads) {
      refuse(`the reply came in ${emptyReads} reads without a byte of body`);
    }
  };
  const stop = () => {
    socket.off('data', onRead);
    response.off('data', onBody);
  };
  const refuse = (message: string) => {
    stop();
    response.destroy(new ReplyFramingRefusedError(message));
  };
  socket.on('data', onRead);
  response.on('data', onBody);
  response.once('end', stop);
  response.once('close', stop);
}
