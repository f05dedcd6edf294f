import { AsyncLocalStorage } from 'node:async_hooks';
import type { SecureClientSessionOptions, SessionOptions } from 'node:http2';
import { isIP, type Socket, connect as tcpConnect } from 'node:net';
import { Duplex } from 'node:stream';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { ReplyTooLargeError } from './aws-reply-limit';

/**
 * What an AWS speech client's HTTP/2 connection may bring besides the bodies it carries
 * (docs/speech-limits.md): the bytes and reads of `providerFetch`'s HTTP/1.1 framing guard, and
 * frames counted like reads. Whatever a server sends, a frame, a read and a byte cost the client
 * the same whether it carries audio or not; these bound the ones that carry none.
 */
export const HTTP2_FRAMING_LIMITS = {
  /** Bytes of frames, headers, padding past the bodies' own bytes and what the client sent. */
  extraBytes: 64 * 1024,
  /** Frames (or reads) without a byte of body, past one per frame (read) with one. */
  allowance: 64,
  /**
   * Per write of the client's: a server answers what it is sent (a WINDOW_UPDATE for the stream
   * and one for the connection, a SETTINGS or PING acknowledged): Transcribe's audio upload.
   */
  perWrite: 4,
} as const;

/** An HTTP/2 connection brought more framing than its bodies allow: it was closed there. */
export class ReplyFramingTooLargeError extends ReplyTooLargeError {
  override readonly name = 'ReplyFramingTooLargeError';
}

/**
 * What the connections one call opens were refused for. The SDK's HTTP/2 handler answers a
 * session destroyed under a stream with errors of its own ("HTTP/2 stream is abnormally aborted",
 * Transcribe's), so the call asks here why; a connection is the call's from the async context
 * `http2.connect` runs in (the SDK connects within `client.send`).
 */
export class FramingWatch {
  #refusal: ReplyFramingTooLargeError | null = null;

  /** Runs `call`; the connections it opens report to this watch. */
  run<T>(call: () => T): T {
    return watches.run(this, call);
  }

  /** The first refusal of the call's connections, or what the call threw. */
  reason(thrown: unknown): unknown {
    return this.#refusal ?? thrown;
  }

  refused(error: ReplyFramingTooLargeError): void {
    this.#refusal ??= error;
  }
}

const watches = new AsyncLocalStorage<FramingWatch>();

const FRAME_HEADER_BYTES = 9;
/** A WINDOW_UPDATE for the stream and one for the connection, answering one write. */
const FRAMING_BYTES_PER_WRITE = 2 * (FRAME_HEADER_BYTES + 4);
const DATA = 0;
const PADDED = 0x8;

/**
 * The `nodeHttp2ConnectOptions` an AWS SDK client's HTTP/2 handler (Polly's, Transcribe
 * streaming's: `NodeHttp2Handler`) passes to `http2.connect`: each session's socket is one of
 * ours, whose reads are scanned for frame headers before nghttp2 parses them. Without it a server
 * sending padded empty DATA frames, WINDOW_UPDATE, PRIORITY or unknown frames as fast as it can
 * (none of which Node counts as a flood) cost 1.4-3.1 s of CPU in 5 s on the main thread, until
 * the call's deadline, with not a byte of body for the body limits to count.
 */
export const framingGuardedHttp2 = {
  // http2.connect hands its own options on: a test's `ca` (AWS's are Node's default authorities).
  createConnection: (authority: URL, options: SessionOptions): Duplex =>
    guardedConnection(authority, (options as SecureClientSessionOptions).ca),
};

/** `ca`: authorities to trust besides Node's (NODE_EXTRA_CA_CERTS included), as http2.connect takes them. */
function guardedConnection(authority: URL, ca: SecureClientSessionOptions['ca']): Duplex {
  const secure = authority.protocol === 'https:';
  const host = authority.hostname.replace(/^\[|\]$/g, '');
  const port = Number(authority.port) || (secure ? 443 : 80);
  const watch = watches.getStore();
  if (!secure) return new FramingGuard(tcpConnect({ host, port }), watch);
  const socket = tlsConnect({
    host,
    port,
    ALPNProtocols: ['h2'],
    ...(isIP(host) === 0 ? { servername: host } : {}),
    ...(ca === undefined ? {} : { ca }),
  });
  const guard = new FramingGuard(socket, watch);
  socket.once('secureConnect', () => {
    // What http2.connect checks of a TLS socket of its own; ours is hidden behind the guard.
    if ((socket as TLSSocket).alpnProtocol !== 'h2') {
      guard.destroy(new Error(`${host} did not agree to HTTP/2 (ALPN)`));
    }
  });
  return guard;
}

/**
 * The socket as a plain stream: every read passes here (so Node's HTTP/2 session reads it
 * through JavaScript, a read at a time, rather than natively), is scanned, and is handed on only
 * within the limits; past them the connection is destroyed with ReplyFramingTooLargeError,
 * which the session's streams fail with.
 */
class FramingGuard extends Duplex {
  readonly #socket: Socket;
  readonly #scan = new FrameScan();
  #writes = 0;

  constructor(socket: Socket, watch: FramingWatch | undefined) {
    super({ allowHalfOpen: false });
    this.#socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      const refusal = this.#scan.read(chunk, this.#writes);
      if (refusal !== null) {
        const error = new ReplyFramingTooLargeError(refusal);
        watch?.refused(error);
        this.destroy(error);
        return;
      }
      if (!this.push(chunk)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => this.destroy());
  }

  override _read(): void {
    this.#socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.#writes += 1;
    this.#socket.write(chunk, done);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.#socket.end(done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.#socket.destroy();
    done(error);
  }
}

/**
 * Server-to-client frames as they arrive, by their 9-byte headers only (nghttp2 parses them
 * after): which bytes are a body (a DATA frame's, without its padding), which are not, and how
 * many frames and reads brought none.
 */
class FrameScan {
  readonly #header = Buffer.alloc(FRAME_HEADER_BYTES);
  #headerBytes = 0;
  /** Payload bytes of the current frame still to come. */
  #remaining = 0;
  #data = false;
  #padded = false;
  /** Padding at the end of the current DATA frame (known once its first byte is read). */
  #padding = 0;
  /** Body bytes of the current DATA frame so far. */
  #frameBody = 0;
  #total = 0;
  #body = 0;
  #framesWithBody = 0;
  #framesWithout = 0;
  #readsWithBody = 0;
  #readsWithout = 0;

  /** Scans one read; a refusal's message past a limit, else null. */
  read(chunk: Buffer, writes: number): string | null {
    this.#total += chunk.length;
    const bodyBefore = this.#body;
    let at = 0;
    while (at < chunk.length) {
      if (this.#remaining === 0 && this.#headerBytes < FRAME_HEADER_BYTES) {
        const taken = Math.min(FRAME_HEADER_BYTES - this.#headerBytes, chunk.length - at);
        chunk.copy(this.#header, this.#headerBytes, at, at + taken);
        this.#headerBytes += taken;
        at += taken;
        if (this.#headerBytes === FRAME_HEADER_BYTES) this.#startFrame();
        continue;
      }
      at += this.#payload(chunk, at);
    }
    if (this.#body > bodyBefore) this.#readsWithBody += 1;
    else this.#readsWithout += 1;
    return this.#refusal(writes);
  }

  #startFrame(): void {
    const length = this.#header.readUIntBE(0, 3);
    this.#data = this.#header[3] === DATA;
    this.#padded = this.#data && ((this.#header[4] ?? 0) & PADDED) !== 0;
    this.#padding = 0;
    this.#remaining = length;
    this.#headerBytes = 0;
    // A frame's body is known by its end; an empty one is counted now (it has no payload).
    if (length === 0) this.#endFrame(0);
    else this.#frameBody = 0;
  }

  /** Takes the current frame's payload from `chunk` at `at`; returns the bytes taken. */
  #payload(chunk: Buffer, at: number): number {
    let taken = 0;
    if (this.#padded) {
      // The pad length, the payload's first byte; what follows it up to the padding is body.
      this.#padding = chunk[at] ?? 0;
      this.#padded = false;
      this.#remaining -= 1;
      taken = 1;
      if (this.#remaining === 0) {
        this.#endFrame(this.#frameBody);
        return taken;
      }
    }
    const bytes = Math.min(this.#remaining, chunk.length - at - taken);
    if (this.#data) {
      const bodyLeft = Math.max(0, this.#remaining - this.#padding);
      const body = Math.min(bytes, bodyLeft);
      this.#body += body;
      this.#frameBody += body;
    }
    this.#remaining -= bytes;
    taken += bytes;
    if (this.#remaining === 0) this.#endFrame(this.#frameBody);
    return taken;
  }

  #endFrame(body: number): void {
    if (body > 0) this.#framesWithBody += 1;
    else this.#framesWithout += 1;
    this.#frameBody = 0;
  }

  #refusal(writes: number): string | null {
    const { extraBytes, allowance, perWrite } = HTTP2_FRAMING_LIMITS;
    const extra = this.#total - this.#body;
    if (extra > this.#body + extraBytes + FRAMING_BYTES_PER_WRITE * writes) {
      return `HTTP/2 connection brought ${extra} bytes of framing for ${this.#body} bytes of body (at most the body's and ${extraBytes} more)`;
    }
    const allowed = allowance + perWrite * writes;
    if (this.#framesWithout > allowed + this.#framesWithBody) {
      return `HTTP/2 connection brought ${this.#framesWithout} frames without a body (at most ${allowance}, one per frame with one and ${perWrite} per write sent)`;
    }
    if (this.#readsWithout > allowed + this.#readsWithBody) {
      return `HTTP/2 connection came in ${this.#readsWithout} reads without a body (at most ${allowance}, one per read with one and ${perWrite} per write sent)`;
    }
    return null;
  }
}
