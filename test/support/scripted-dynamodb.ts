import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listenOnFreePort } from './free-port';
import type { ReceivedRequest } from './sigv4-verifier';

/** What the scripted endpoint does with one request, in the order the requests come. */
export type ScriptedReply =
  | {
      readonly kind: 'json';
      readonly status: number;
      readonly body: unknown;
      /** Written in this many pieces, as a long reply from AWS arrives. */
      readonly chunks?: number;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | {
      readonly kind: 'error';
      readonly status: number;
      /** The error's name: sent as `__type` with DynamoDB's namespace. */
      readonly type: string;
      readonly message?: string;
      /** Other fields of the error's body (`Item` of a failed condition). */
      readonly fields?: Readonly<Record<string, unknown>>;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** A complete HTTP reply whose body is this text as it is. */
  | { readonly kind: 'text'; readonly status: number; readonly body: string }
  /** A reply that promises this body's length, sends half of it, then drops the connection. */
  | { readonly kind: 'cut'; readonly status: number; readonly body: string }
  | { readonly kind: 'hang' }
  | { readonly kind: 'reset' };

export const itemReply = (item: Record<string, unknown>): ScriptedReply => ({
  kind: 'json',
  status: 200,
  body: { Item: item },
});

export const errorReply = (
  status: number,
  type: string,
  extra: Omit<Extract<ScriptedReply, { kind: 'error' }>, 'kind' | 'status' | 'type'> = {},
): ScriptedReply => ({ kind: 'error', status, type, ...extra });

/**
 * A DynamoDB endpoint on loopback that answers each request with the next scripted reply (an
 * empty JSON object once the script is used up) and keeps every request it received.
 */
export class ScriptedDynamoDb {
  readonly received: ReceivedRequest[] = [];
  /** Requests left unanswered whose connection the client has since closed. */
  abandoned = 0;
  #script: ScriptedReply[] = [];
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  #port = 0;

  constructor() {
    this.#server = createServer((request, response) => this.#answer(request, response));
    this.#server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  async listen(): Promise<void> {
    this.#port = await listenOnFreePort(this.#server);
  }

  script(...replies: ScriptedReply[]): void {
    this.#script = replies;
    this.received.length = 0;
    this.abandoned = 0;
  }

  /** The target operations of the requests received, in order (`GetItem`, …). */
  get operations(): string[] {
    return this.received.map((request) =>
      (request.headers['x-amz-target'] ?? '').replace('DynamoDB_20120810.', ''),
    );
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  async #answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    this.received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers as Record<string, string>,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const reply = this.#script.shift() ?? { kind: 'json', status: 200, body: {} };
    switch (reply.kind) {
      case 'hang':
        response.once('close', () => {
          this.abandoned += 1;
        });
        return;
      case 'reset':
        request.socket.destroy();
        return;
      case 'text':
        response.writeHead(reply.status, { 'content-type': 'text/html' });
        response.end(reply.body);
        return;
      case 'cut': {
        response.writeHead(reply.status, {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': Buffer.byteLength(reply.body),
        });
        response.write(reply.body.slice(0, Math.floor(reply.body.length / 2)), () => {
          request.socket.destroy();
        });
        return;
      }
      case 'json':
      case 'error': {
        const body =
          reply.kind === 'json'
            ? JSON.stringify(reply.body)
            : JSON.stringify({
                __type: `com.amazonaws.dynamodb.v20120810#${reply.type}`,
                message: reply.message ?? 'x',
                ...reply.fields,
              });
        response.writeHead(reply.status, {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-requestid': `request-${this.received.length}`,
          ...reply.headers,
        });
        const pieces = reply.kind === 'json' ? (reply.chunks ?? 1) : 1;
        const size = Math.ceil(body.length / pieces);
        for (let start = 0; start < body.length; start += size) {
          response.write(body.slice(start, start + size));
        }
        response.end();
      }
    }
  }
}
