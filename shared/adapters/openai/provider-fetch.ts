import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { pieceLimit } from '../system/body-reads';
import {
  type BodyToSend,
  encodedBody,
  headersToSend,
  plainBody,
  sendStream,
} from './provider-request';
import { ReplyBodyCount, type ReplyBodyTooLargeError } from './reply-body-limit';
import { guardReplyFraming, ReplyFramingRefusedError } from './reply-framing-guard';

/**
 * The most bytes of a provider's status line and headers (each block of them, and all the reads
 * before the last one together). A model or speech server's are well under 2 KiB; Node's and
 * fetch's own default is the same 16 KiB.
 */
export const REPLY_HEADER_LIMIT_BYTES = 16 * 1024;

/**
 * The most reads of the socket before the headers are whole: 64, and one per KiB of the limit
 * (body-reads.ts's rule). Every read costs an HTTP parse whatever its size: a server sending its
 * headers a byte at a time costs Node's fetch 470 ms of CPU over 3 s.
 */
export const REPLY_HEADER_READS = pieceLimit(REPLY_HEADER_LIMIT_BYTES);

/**
 * A provider's status line and headers broke a limit or did not parse as HTTP: the attempt failed
 * as a malformed reply (the model is asked again; speech answers 502), not as a lost connection.
 */
export class ReplyHeadersRefusedError extends Error {
  override readonly name = 'ReplyHeadersRefusedError';
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Node's agents keep the options they were made with (undocumented in its types). */
type NodeAgentWithOptions = http.Agent & { readonly options: http.AgentOptions };

/**
 * Shared by every provider client, as Node's global agents are: connections are kept alive, and
 * closed after 4 s idle (or a second before a server's `Keep-Alive: timeout=` hint), before the
 * 5 s after which many servers close theirs (Node's, uvicorn's, llama.cpp's). Proxies as Node's
 * own agents and fetch: HTTP(S)_PROXY and NO_PROXY only when NODE_USE_ENV_PROXY (or
 * --use-env-proxy) asks, which Node has read into its global agent's options.
 */
const agentOptions = {
  keepAlive: true,
  scheduling: 'lifo',
  timeout: 4_000,
  proxyEnv: (http.globalAgent as NodeAgentWithOptions).options.proxyEnv,
} as const satisfies http.AgentOptions;
const agents = {
  'http:': new http.Agent(agentOptions),
  'https:': new https.Agent(agentOptions),
} as const;

/**
 * The `fetch` provider replies come through (the openai SDK's for the model and the speech
 * servers), on `node:http`/`node:https` rather than the platform's fetch, so that a reply is
 * bounded where its pieces arrive, in one layer: what comes before the body, at most
 * REPLY_HEADER_LIMIT_BYTES of headers in at most REPLY_HEADER_READS reads of the socket, else
 * ReplyHeadersRefusedError; the body, counted as each read of it arrives (ReplyBodyCount: an
 * error reply to ERROR_REPLY_LIMIT_BYTES, a success to `successLimitBytes`, or, with `null`, not
 * counted here), else it fails with ReplyBodyTooLargeError, unread past that read, its
 * connection closed. The body the caller gets is the transport's own stream. What it keeps of
 * fetch: the signal (an abort fails the request, or the body once it streams, with the signal's
 * reason), a streamed body, TLS, proxies as fetch takes them, kept-alive connections (a request
 * that finds one closed by its server is sent again), a connection failure thrown as fetch
 * throws it (`TypeError`, its cause the socket's error; "terminated" once the body streams).
 * What it does not do: follow redirects (a 3xx is the reply), ask for compressed bodies (so the
 * byte limits count what is parsed), speak HTTP/2.
 */
export function providerFetch(successLimitBytes: number | null): Fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const agent =
      url.protocol === 'http:' || url.protocol === 'https:' ? agents[url.protocol] : null;
    if (agent === null) throw new TypeError(`fetch failed: ${url.protocol} is not HTTP`);
    const signal = init.signal ?? (input instanceof Request ? input.signal : null);
    signal?.throwIfAborted();
    const headers = headersToSend(init.headers ?? (input instanceof Request ? input.headers : {}));
    const given = init.body ?? (input instanceof Request ? input.body : null);
    const body = plainBody(given) ?? (await encodedBody(given));
    if (body.contentType !== null && headers['content-type'] === undefined) {
      headers['content-type'] = body.contentType;
    }
    if (body.bytes !== null && !(body.bytes instanceof ReadableStream)) {
      headers['content-length'] = String(Buffer.byteLength(body.bytes));
    }
    // Without it any coding is acceptable (RFC 9110): nothing here decodes one, and a decoded
    // body would outgrow the byte limits that count it.
    headers['accept-encoding'] = 'identity';
    const options: http.RequestOptions = {
      method: init.method ?? (input instanceof Request ? input.method : 'GET'),
      headers,
      agent,
      maxHeaderSize: REPLY_HEADER_LIMIT_BYTES,
    };
    const exchange: Exchange = { url, options, body, signal, successLimitBytes };
    // A kept-alive connection that fails before a byte of reply is most often one the server
    // closed while it was idle (its idle timeout passing as the request was on its way): the
    // request is sent again, once, POST or not, where fetch sends again only idempotent ones.
    // The server may also have taken it and then reset: a provider call keeps nothing, so that
    // costs it one more run of the request, as the turn's retry of a lost connection would; once,
    // so a request that fails its server is not sent again for each connection of the pool.
    const sent = await sendOnce(exchange, true);
    return sent === reusedConnectionFailed ? sendOnce(exchange, false) : sent;
  };
}

/** One request as providerFetch sends it, on whichever connection. */
interface Exchange {
  readonly url: URL;
  readonly options: http.RequestOptions;
  readonly body: BodyToSend;
  readonly signal: AbortSignal | null;
  readonly successLimitBytes: number | null;
}

/** What sendOnce answers when a kept-alive connection failed before a byte of reply. */
const reusedConnectionFailed = Symbol('a kept-alive connection failed before its reply');

/** The errors of a connection the server closed: a reset, a write into it, a hang-up. */
const closedConnectionCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** One request on one connection: its response, or (when `mayResend`) reusedConnectionFailed. */
function sendOnce(
  exchange: Exchange,
  mayResend: true,
): Promise<Response | typeof reusedConnectionFailed>;
function sendOnce(exchange: Exchange, mayResend: false): Promise<Response>;
function sendOnce(
  exchange: Exchange,
  mayResend: boolean,
): Promise<Response | typeof reusedConnectionFailed> {
  const { url, options, body, signal } = exchange;
  const request = (url.protocol === 'https:' ? https : http).request(url, options);
  return new Promise((resolve, reject) => {
    const guard = new HeaderGuard(request);
    let responded: IncomingMessage | null = null;
    const abort = () => {
      const reason: unknown = signal?.reason;
      request.destroy(reason instanceof Error ? reason : new DOMException('aborted', 'AbortError'));
    };
    const forget = () => signal?.removeEventListener('abort', abort);
    signal?.addEventListener('abort', abort, { once: true });
    // Aborted while the body was being encoded: the listener came too late to be told.
    if (signal?.aborted) abort();
    request.on('error', (error) => {
      guard.stop();
      if (responded !== null) {
        // The body's stream reports it (see streamedBody); the request has nothing left to fail.
        return;
      }
      forget();
      const code = (error as NodeJS.ErrnoException).code ?? '';
      const resendable =
        mayResend && !(body.bytes instanceof ReadableStream) && signal?.aborted !== true;
      if (
        request.reusedSocket &&
        guard.reads === 0 &&
        closedConnectionCodes.has(code) &&
        resendable
      ) {
        resolve(reusedConnectionFailed);
        return;
      }
      reject(beforeResponseFailure(error, signal));
    });
    request.on('response', (response) => {
      guard.stop();
      responded = response;
      const status = response.statusCode ?? 0;
      const statusText = response.statusMessage ?? '';
      // Node's parser takes what a Response refuses (a control character in the reason phrase):
      // refused here, as a Response constructor throwing in this listener would be uncaught.
      const encoding = response.headers['content-encoding']?.trim().toLowerCase() ?? 'identity';
      const refusal =
        status < 200 || status > 599
          ? `the reply's status ${status} is not a final one`
          : !reasonPhrase.test(statusText)
            ? `the reply's status line has a reason phrase fetch refuses: ${JSON.stringify(statusText)}`
            : // An encoded success is bytes that are not what they say (audio played as noise).
              status < 300 && encoding !== 'identity'
              ? `the reply is encoded (${encoding}), which was not asked for`
              : null;
      if (refusal !== null) {
        forget();
        response.destroy();
        reject(new ReplyHeadersRefusedError(refusal));
        return;
      }
      const empty = nullBodyStatuses.has(status) || request.method === 'HEAD';
      const count = empty ? null : ReplyBodyCount.of(status, exchange.successLimitBytes);
      const announcedTooLarge = count?.announced(response.headers['content-length']) ?? null;
      if (empty || announcedTooLarge !== null) {
        forget();
        // Nothing of it is read: a body over its limit closes the connection.
        if (empty) response.resume();
        else response.destroy();
      } else guardReplyFraming(response);
      const streamed = empty
        ? null
        : announcedTooLarge !== null
          ? refusedBody(announcedTooLarge)
          : streamedBody(response, signal, forget, count);
      const replied = new Response(streamed, { status, statusText });
      // Appended to the response's own headers, not copied into them from a Headers of ours.
      const raw = response.rawHeaders;
      for (let at = 0; at + 1 < raw.length; at += 2) {
        replied.headers.append(raw[at] as string, raw[at + 1] as string);
      }
      resolve(replied);
    });
    if (body.bytes instanceof ReadableStream) {
      sendStream(body.bytes, request);
    } else {
      request.end(body.bytes ?? undefined);
    }
  });
}

/** fetch's reason-phrase: tabs, spaces, visible characters and obs-text. */
const reasonPhrase = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Counts what comes before the response: the parser has read each piece before this listener is
 * told of it (it listens first), so a read past a limit is the last one parsed.
 */
class HeaderGuard {
  #socket: Socket | null = null;
  #stopped = false;
  #reads = 0;
  #bytes = 0;

  /** The reads of the socket counted so far: 0 while the server has sent nothing. */
  get reads(): number {
    return this.#reads;
  }
  readonly #request: http.ClientRequest;
  readonly #count = (chunk: Buffer) => {
    // Told of the read that completed the headers too (an emit calls the listeners it started
    // with), after the response stopped the count: that read holds the body's first bytes.
    if (this.#stopped) return;
    this.#reads += 1;
    this.#bytes += chunk.byteLength;
    if (this.#reads > REPLY_HEADER_READS) {
      this.#refuse(
        `the reply's headers came in more than ${REPLY_HEADER_READS} reads and were not read further`,
      );
    } else if (this.#bytes > REPLY_HEADER_LIMIT_BYTES) {
      this.#refuse(`the reply's headers are over ${REPLY_HEADER_LIMIT_BYTES} bytes`);
    }
  };

  constructor(request: http.ClientRequest) {
    this.#request = request;
    request.once('socket', (socket) => {
      if (this.#stopped) return;
      this.#socket = socket;
      socket.on('data', this.#count);
    });
  }

  stop(): void {
    this.#stopped = true;
    this.#socket?.off('data', this.#count);
    this.#socket = null;
  }

  #refuse(message: string): void {
    this.stop();
    this.#request.destroy(new ReplyHeadersRefusedError(message));
  }
}

/** What failed before the status line and headers were whole, as fetch would throw it. */
function beforeResponseFailure(error: Error, signal: AbortSignal | null): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof ReplyHeadersRefusedError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ReplyHeadersRefusedError(
      `the reply's headers are over ${REPLY_HEADER_LIMIT_BYTES} bytes`,
      { cause: error },
    );
  }
  if (code.startsWith('HPE_')) {
    return new ReplyHeadersRefusedError(`the reply is not HTTP: ${error.message}`, {
      cause: error,
    });
  }
  return new TypeError('fetch failed', { cause: error });
}

/** A body refused before a byte of it was read: it fails with `error` when read. */
function refusedBody(error: ReplyBodyTooLargeError): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(error);
    },
  });
}

/**
 * The response's body as a web stream, read as the consumer pulls (the socket is paused in
 * between); cancelling it closes the connection. Each piece is counted as it arrives (`count`):
 * one past a limit errors the stream and closes the connection. An abort, or the connection lost
 * before the body's end, errors it too.
 */
function streamedBody(
  response: IncomingMessage,
  signal: AbortSignal | null,
  forget: () => void,
  count: ReplyBodyCount | null,
): ReadableStream<Uint8Array> {
  let settled = false;
  let fail: (reason: unknown) => void = () => {};
  const abort = () => {
    const reason: unknown = signal?.reason;
    fail(reason);
    response.destroy();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const settle = () => {
        settled = true;
        forget();
        signal?.removeEventListener('abort', abort);
      };
      fail = (reason) => {
        if (settled) return;
        settle();
        controller.error(reason);
      };
      // The request's own abort listener destroys the request, not this stream: replaced here.
      forget();
      if (signal?.aborted) {
        abort();
        return;
      }
      signal?.addEventListener('abort', abort, { once: true });
      response.on('data', (chunk: Buffer) => {
        // Read before a cancel, an error or an abort took effect: the stream is closed to it.
        if (settled) return;
        const tooLarge = count?.add(chunk.byteLength) ?? null;
        if (tooLarge !== null) {
          fail(tooLarge);
          response.destroy();
          return;
        }
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) response.pause();
      });
      response.on('end', () => {
        if (settled) return;
        settle();
        controller.close();
      });
      response.on('error', (error) =>
        fail(
          error instanceof ReplyFramingRefusedError
            ? error
            : new TypeError('terminated', { cause: error }),
        ),
      );
      response.on('close', () => {
        if (!response.complete) fail(new TypeError('terminated', { cause: new Error('closed') }));
      });
    },
    pull() {
      response.resume();
    },
    cancel() {
      settled = true;
      forget();
      signal?.removeEventListener('abort', abort);
      response.destroy();
    },
  });
}

/** Statuses a Response may not be built with a body for. */
const nullBodyStatuses = new Set([204, 205, 304]);
