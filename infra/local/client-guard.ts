import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type ApiRoute, apiRoutes } from '../../functions/http/contract/api-routes';
import { LIMITS } from '../../functions/http/contract/request-schemas';
import type { mapError } from '../../functions/http/errors/error-table';
import { errorBody } from '../../functions/http/errors/http-error';
import { pieceLimit, REPLY_PIECES } from '../../shared/adapters/system/body-reads';

/**
 * What a client may hold of the local server (reachable from the LAN with HOST=0.0.0.0):
 * docs/speech-limits.md, "The local server". Each refusal is answered in the JSON error format.
 */
export const LOCAL_SERVER_LIMITS = {
  /** From the connection to the end of the request headers (a slow-loris sending its headers). */
  headersTimeoutMs: 10_000,
  /** From the connection to the end of the body: a 4 MiB upload on a slow Wi-Fi link fits. */
  requestTimeoutMs: 30_000,
  /**
   * How long an answer may wait for the client to take more of it (a client that stops reading):
   * then the connection is cut and a streamed answer's producer (a synthesis) stops. A node
   * playing speech as it arrives reads it at least as fast as it plays.
   */
  writeStallTimeoutMs: 30_000,
  /** A request's headers (Node's `maxHeaderSize`, set to it): more is a 431. */
  headerBytes: 16 * 1024,
  /** How often the two timeouts above are checked: they fire up to this much late. */
  checkIntervalMs: 1_000,
  /**
   * Open connections from one address: a node holds one or two, `npm run load` 50 from loopback.
   * A keyless one costs no body (refused from its headers), a slow one at most the timeouts.
   */
  connectionsPerAddress: 64,
  /** Open connections in all. */
  connections: 256,
  /**
   * Bytes of request bodies held at once, every request's together, uploads and JSON bodies
   * each: without it a node's 64 connections, each 1 byte short of a 4 MiB upload, held 256 MB
   * (1 GiB over 256 connections). Four whole uploads, or about 30 of a node's 5 s recordings.
   */
  bodyBytesHeld: 16 * 1024 * 1024,
  /**
   * Requests in hand at once on one connection, the one being answered included. Node parses a
   * read's pipelined requests at once and runs each handler without waiting for the answer
   * before it: one connection of 3,000 pipelined requests from a node with its key ran them all
   * together (6.3 s of CPU, RSS 165 to 480 MB). No HTTP client here pipelines (curl, fetch).
   */
  requestsPerConnection: 16,
} as const;

export type LocalServerLimits = { readonly [Name in keyof typeof LOCAL_SERVER_LIMITS]: number };

/** A refusal as the error table gives it: status, JSON body, headers. */
export type Refusal = ReturnType<typeof mapError>;

/**
 * Bounds what clients hold of `server`: connections per address and in all (a JSON 503 past
 * them), and a timeout or a request Node cannot parse answered in the JSON error format, never
 * Node's plain text. The header and request timeouts are the server's own options (`limits`).
 */
export function guardConnections(server: Server, limits: LocalServerLimits): void {
  limitConnections(server, limits);
  limitHeaderReads(server, limits);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
    refuseSocket(socket, clientErrorAnswer(error, limits)),
  );
  // Without a listener Node drops a CONNECT's connection unanswered: nothing here is a proxy.
  server.on('connect', (_request: IncomingMessage, socket: Socket) =>
    refuseSocket(socket, {
      statusCode: 405,
      body: errorBody('method_not_allowed', 'CONNECT is not served: this is not a proxy.'),
    }),
  );
}

/** Sockets answered and closing: a request parsed from them after that is not served. */
const refusedSockets = new WeakSet<Socket>();

/**
 * Refuses the connection from now on: requests already parsed behind `request` are not served,
 * nothing more is read, and it closes once its answer (and the answers before it) are sent.
 */
export function refuseAfter(request: IncomingMessage): void {
  // The request's socket: a response queued behind others has none yet.
  const socket = request.socket;
  refusedSockets.add(socket);
  socket.pause();
}

/** Whether the connection was refused (answered and closing): nothing more is served on it. */
export function isRefused(socket: Socket): boolean {
  return refusedSockets.has(socket);
}

/** The most a body may hold, as its handler counts it. */
export interface BodyLimit {
  readonly bytes: number;
  readonly what: 'body' | 'upload';
}

const JSON_BODY_LIMIT: BodyLimit = { bytes: LIMITS.bodyBytes, what: 'body' };

/** The routes that take an upload, by path, with their own limit (the route table says which). */
const uploadLimits: ReadonlyMap<string, BodyLimit> = new Map(
  apiRoutes.flatMap((route: ApiRoute) =>
    route.upload === undefined
      ? []
      : [[route.path, { bytes: route.upload.limitBytes, what: 'upload' as const }] as const],
  ),
);

/** The most a route's body may hold; any other path, a JSON body's limit. */
export function bodyLimitOf(path: string): BodyLimit {
  return uploadLimits.get(path) ?? JSON_BODY_LIMIT;
}

/**
 * A body read whole, or why it was not: over its limit, dripped in too many pieces, or the
 * server holding all the bodies it may (BodyBudget).
 */
export type BodyReading =
  | { readonly ok: true; readonly body: Buffer }
  | { readonly ok: false; readonly reason: 'too_large' }
  | { readonly ok: false; readonly reason: 'too_fragmented'; readonly pieces: number }
  | { readonly ok: false; readonly reason: 'server_busy' };

/**
 * The bytes of request bodies the server holds at once (`bodyBytesHeld`), shared by every
 * request: each limit alone (a body, the connections) is small, their product is not.
 */
export class BodyBudget {
  #held = 0;

  constructor(readonly limitBytes: number) {}

  /** A request's share, empty until it takes bytes; released once its request is done. */
  share(): BodyShare {
    let taken = 0;
    return {
      cover: (bytes) => {
        if (bytes <= taken) return true;
        if (this.#held + bytes - taken > this.limitBytes) return false;
        this.#held += bytes - taken;
        taken = bytes;
        return true;
      },
      release: () => {
        this.#held -= taken;
        taken = 0;
      },
    };
  }
}

/** One request's bytes of the BodyBudget. */
export interface BodyShare {
  /** Grows the share to `bytes` in all; false (nothing taken) when the budget has not that many. */
  cover(bytes: number): boolean;
  release(): void;
}

/**
 * The body, read no further than `limitBytes`, nor than `pieceLimit(limitBytes)` reads of the
 * socket (64, and one per KiB of the limit; body-reads.ts): each read costs the same whatever
 * its size, and a node dripping its 200 KB body a byte at a time cost the server 0.76 s of CPU
 * within the request timeout. A client on a slow link sends segments of a kilobyte or more.
 */
export async function readBody(
  request: IncomingMessage,
  limitBytes: number,
  share: BodyShare,
): Promise<BodyReading> {
  const pieces = pieceLimit(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) return { ok: false, reason: 'too_large' };
    if (!share.cover(size)) return { ok: false, reason: 'server_busy' };
    chunks.push(chunk as Buffer);
    if (chunks.length > pieces) return { ok: false, reason: 'too_fragmented', pieces };
  }
  return { ok: true, body: Buffer.concat(chunks) };
}

/** The connection ends once `response` is sent, whatever the client still sends. */
export function closeWhenAnswered(response: ServerResponse): void {
  response.setHeader('Connection', 'close');
  const socket = response.socket;
  response.once('finish', () => {
    if (socket !== null) closeAfterAnswer(socket);
  });
}

/** A body refused for the pieces it came in. */
export function bodyTooFragmented(pieces: number): Refusal {
  return {
    statusCode: 400,
    body: errorBody(
      'body_too_fragmented',
      `The body came in more than ${pieces} pieces (under ${REPLY_PIECES.minAverageBytes} bytes ` +
        'each on average); send it as it is written, not a byte at a time.',
      [{ limit_pieces: pieces }],
    ),
  };
}

/** A body refused because the server holds all the bodies of its kind it may at once. */
export function serverBusy(limits: LocalServerLimits, what: BodyLimit['what']): Refusal {
  const mib = limits.bodyBytesHeld / (1024 * 1024);
  const kind = what === 'upload' ? 'uploads' : 'request bodies';
  return {
    statusCode: 503,
    headers: { 'Retry-After': '1' },
    body: errorBody(
      'server_busy',
      `The server holds ${mib} MiB of ${kind} at once, other requests' included; retry shortly.`,
      [{ limit_body_bytes_held: limits.bodyBytesHeld }],
    ),
  };
}

/** Headers refused for the reads they came in. */
function headersTooFragmented(pieces: number): Refusal {
  return {
    statusCode: 400,
    body: errorBody(
      'headers_too_fragmented',
      `The request's headers came in more than ${pieces} pieces; send them as they are ` +
        'written, not a byte at a time.',
      [{ limit_pieces: pieces }],
    ),
  };
}

/**
 * Refuses a request whose headers come in more than `pieceLimit(headerBytes)` reads of the
 * socket (80), as a provider's reply headers are: each read costs Node's parser the same whatever
 * its size, and a client dripping its headers a byte at a time cost the server 310 ms of CPU
 * within the headers' timeout (10 s), before any request existed to refuse. A client sends its
 * headers in one or two writes. A 'data' listener takes the socket off the parser's native read
 * path (Node unconsumes it), so every read is seen. Each request's headers get their own count,
 * from the request before it: every read counts but those that come while a request's body is
 * still arriving (readBody counts those). A read while an answer is being sent counts too: a
 * client dripping the next request's headers behind a streamed answer cost 530 ms of CPU.
 * The refusal is written after a kept-alive connection's earlier answers; while one is being
 * sent the connection is only closed, as its bytes would be cut.
 */
function limitHeaderReads(server: Server, limits: LocalServerLimits): void {
  const pieces = pieceLimit(limits.headerBytes);
  const refusal = headersTooFragmented(pieces);
  const connections = new WeakMap<
    Socket,
    { reads: number; bodies: Set<IncomingMessage>; answers: Set<ServerResponse> }
  >();
  server.on('connection', (socket: Socket) => {
    if (isRefused(socket)) return;
    const state = {
      reads: 0,
      bodies: new Set<IncomingMessage>(),
      answers: new Set<ServerResponse>(),
    };
    connections.set(socket, state);
    socket.on('data', () => {
      if (state.bodies.size > 0 || isRefused(socket)) return;
      state.reads += 1;
      if (state.reads > pieces) {
        // A kept-alive connection's earlier answers are whole: only one being sent is cut.
        const cutsAnAnswer = [...state.answers].some((answer) => answer.headersSent);
        refuseSocket(socket, refusal, cutsAnAnswer);
      }
    });
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const state = connections.get(request.socket);
    if (state === undefined) return;
    state.reads = 0;
    if (!response.writableFinished) {
      state.answers.add(response);
      const sent = () => state.answers.delete(response);
      response.once('finish', sent);
      response.once('close', sent);
    }
    if (request.complete) return;
    state.bodies.add(request);
    const arrived = () => state.bodies.delete(request);
    request.once('end', arrived);
    response.once('close', arrived);
  });
}

/** What a client error (a timeout, a request Node cannot parse) is answered with. */
function clientErrorAnswer(error: NodeJS.ErrnoException, limits: LocalServerLimits): Refusal {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      statusCode: 408,
      body: errorBody(
        'request_timeout',
        'The request did not arrive in time: its headers within ' +
          `${limits.headersTimeoutMs / 1000} s, all of it within ` +
          `${limits.requestTimeoutMs / 1000} s.`,
      ),
    };
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { statusCode: 431, body: errorBody('headers_too_large', 'The headers are too large.') };
  return { statusCode: 400, body: errorBody('invalid_http', 'The request is not valid HTTP.') };
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  503: 'Service Unavailable',
};

/**
 * Answers on the socket itself (no request object exists, or Node gave up on it) in the JSON
 * error format, then closes the connection. Nothing is written when that would cut an answer
 * being sent (`cutsAnAnswer`; unless told, whenever the socket has sent anything).
 */
function refuseSocket(
  socket: Socket,
  answer: Refusal,
  cutsAnAnswer = socket.bytesWritten > 0,
): void {
  refusedSockets.add(socket);
  if (socket.writable && !cutsAnAnswer) {
    const json = JSON.stringify(answer.body);
    const headers = [
      `HTTP/1.1 ${answer.statusCode} ${STATUS_TEXT[answer.statusCode] ?? 'Error'}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(json)}`,
      ...Object.entries(answer.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
      'Connection: close',
    ];
    socket.write(`${headers.join('\r\n')}\r\n\r\n${json}`);
  }
  closeAfterAnswer(socket);
}

/** How long a refused client has to read its answer before the connection is cut. */
const CLOSE_GRACE_MS = 1_000;

/**
 * Ends the connection without reading what the client still sends: the write side is closed
 * after the answer (the client reads it), reading stops, and the socket is destroyed soon after.
 */
function closeAfterAnswer(socket: Socket): void {
  refusedSockets.add(socket);
  socket.pause();
  socket.end();
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

/** Refuses connections beyond the limits, per address and in all, with a JSON 503. */
function limitConnections(server: Server, limits: LocalServerLimits): void {
  const perAddress = new Map<string, number>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const fromAddress = perAddress.get(address) ?? 0;
    if (open >= limits.connections || fromAddress >= limits.connectionsPerAddress) {
      const which = open >= limits.connections ? limits.connections : limits.connectionsPerAddress;
      refuseSocket(socket, {
        statusCode: 503,
        headers: { 'Retry-After': '1' },
        body: errorBody(
          'too_many_connections',
          `The server holds ${which} connections ${which === limits.connections ? 'in all' : 'from one address'}; close one or retry shortly.`,
          [
            {
              limit_connections: limits.connections,
              limit_connections_per_address: limits.connectionsPerAddress,
            },
          ],
        ),
      });
      return;
    }
    open += 1;
    perAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      open -= 1;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
}

/**
 * The requests each connection has in hand (parsed, not yet answered): Node hands over every
 * pipelined request it parses at once, so without a count one connection runs any number.
 */
export class RequestsInHand {
  readonly #counts = new WeakMap<Socket, number>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Counts `request` until its answer is done; false past the limit (not counted). */
  take(request: IncomingMessage, response: ServerResponse): boolean {
    const socket = request.socket;
    const count = this.#counts.get(socket) ?? 0;
    if (count >= this.#limit) return false;
    this.#counts.set(socket, count + 1);
    response.once('close', () => this.#counts.set(socket, (this.#counts.get(socket) ?? 1) - 1));
    return true;
  }
}

/** The answer to a request past the connection's requests in hand. */
export function tooManyInHand(limits: LocalServerLimits): Refusal {
  return {
    statusCode: 503,
    headers: { 'Retry-After': '1' },
    body: errorBody(
      'too_many_requests_in_hand',
      `The connection has ${limits.requestsPerConnection} requests waiting for their answers; send the next one when an answer has come, or open another connection.`,
      [{ limit_requests_per_connection: limits.requestsPerConnection }],
    ),
  };
}
