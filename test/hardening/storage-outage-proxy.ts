import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { listenOnFreePort } from '../support/free-port';

/** An answer stopped on its way back to the handler. */
export interface HeldReply {
  /** Resolves once the server behind has answered and the answer is being held. */
  readonly arrived: Promise<void>;
  /** Sends the held answer on. */
  release(): void;
}

/**
 * An HTTP proxy in front of the scripted model server or the database, for faults the servers
 * themselves cannot stage: an answer held until the test has acted, or a request that reached
 * the server whose answer is lost on the way back.
 */
export interface FaultProxy {
  /** `http://127.0.0.1:PORT` followed by the target's path, e.g. `/v1`. */
  readonly baseURL: string;
  /** Holds the answer to the next request until `release`. */
  holdNextReply(): HeldReply;
  /**
   * The next request that `matches` reaches the server and is carried out, but its connection
   * is cut instead of answered. Resolves once that has happened.
   */
  dropNextReply(matches: (headers: IncomingHttpHeaders) => boolean): Promise<void>;
  close(): Promise<void>;
}

/** Hop-by-hop and body-framing headers: the proxy re-frames the body it buffered. */
const NOT_FORWARDED = new Set([
  'connection',
  'content-encoding',
  'content-length',
  'host',
  'keep-alive',
  'transfer-encoding',
]);

interface Hold {
  readonly arrived: () => void;
  readonly released: Promise<void>;
}

interface Drop {
  readonly matches: (headers: IncomingHttpHeaders) => boolean;
  readonly dropped: () => void;
}

export async function startFaultProxy(targetBaseUrl: string): Promise<FaultProxy> {
  const target = new URL(targetBaseUrl);
  const holds: Hold[] = [];
  const drops: Drop[] = [];

  const server = createServer((incoming, response) => {
    const dropIndex = drops.findIndex((drop) => drop.matches(incoming.headers));
    const [drop] = dropIndex === -1 ? [] : drops.splice(dropIndex, 1);
    forward(incoming, target)
      .then(async (answer) => {
        if (drop !== undefined) {
          response.socket?.destroy();
          drop.dropped();
          return;
        }
        const hold = holds.shift();
        if (hold !== undefined) {
          hold.arrived();
          await hold.released;
        }
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      })
      .catch((error: unknown) => {
        response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `proxy failed: ${String(error)}` } }));
      });
  });
  const port = await listenOnFreePort(server);

  return {
    baseURL: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, '')}`,
    holdNextReply: () => {
      let arrived = (): void => undefined;
      let release = (): void => undefined;
      const arrivedPromise = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ arrived, released });
      return { arrived: arrivedPromise, release };
    },
    dropNextReply: (matches) =>
      new Promise<void>((dropped) => {
        drops.push({ matches, dropped });
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

async function forward(incoming: IncomingMessage, target: URL): Promise<Answer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) {
    chunks.push(chunk as Buffer);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name)) {
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  const method = incoming.method ?? 'GET';
  const reply = await fetch(new URL(incoming.url ?? '/', target.origin), {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
  });
  const answerHeaders: Record<string, string> = {};
  reply.headers.forEach((value, name) => {
    if (!NOT_FORWARDED.has(name)) answerHeaders[name] = value;
  });
  return {
    status: reply.status,
    headers: answerHeaders,
    body: Buffer.from(await reply.arrayBuffer()),
  };
}
