import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { getEventListeners } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  providerFetch,
  ReplyHeadersRefusedError,
} from '../../../shared/adapters/openai/provider-fetch';
import { closedAfterEach } from '../../support/closed-after-each';
import { listenOnFreePort } from '../../support/free-port';
import { failureOf, modelFor, requestOf, userAsks } from './model-under-test';

/**
 * How a raw server answers the `request`th request (from 0, over all connections) on its
 * `connection`th connection: it writes what it wants to the socket, or closes it.
 */
type Script = (
  socket: Socket,
  at: { readonly request: number; readonly connection: number },
) => void;

interface RawProvider {
  readonly url: string;
  readonly connections: () => number;
  readonly requests: () => number;
}

const { servers, sockets } = closedAfterEach();

/** A server on a raw socket: a request is taken as whole once its head and `{}` body came. */
async function rawProvider(script: Script): Promise<RawProvider> {
  let connections = 0;
  let requests = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    const connection = connections;
    connections += 1;
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      // Every request here sends a short body after its head; a request is whole at its end.
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        const length = Number(/content-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        pending = pending.slice(end + 4 + length);
        const request = requests;
        requests += 1;
        script(socket, { request, connection });
      }
    });
  });
  servers.push(server);
  const port = await listenOnFreePort(server);
  return {
    url: `http://127.0.0.1:${port}/v1/x`,
    connections: () => connections,
    requests: () => requests,
  };
}

const ok = (body = '{"ok":true}', head = ''): string =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const post = (url: string, init: RequestInit = {}) =>
  providerFetch(null)(url, { method: 'POST', body: '{}', ...init });

/** Records every uncaught exception and unhandled rejection while `act` runs, and a tick after. */
async function troubleDuring(act: () => Promise<unknown>): Promise<unknown[]> {
  const trouble: unknown[] = [];
  const record = (error: unknown) => trouble.push(error);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  try {
    await act().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  }
  return trouble;
}

describe('providerFetch under every ordering of events', () => {
  it('sends a POST again on a new connection when a kept-alive one was closed while idle', async () => {
    // Prepare: the server answers the first request, then closes that connection as the second
    // request reaches it (its idle timeout, as the request was on its way).
    const server = await rawProvider((socket, at) => {
      if (at.request === 1) socket.destroy();
      else socket.write(ok(`{"request":${at.request}}`));
    });
    await (await post(server.url)).text();

    // Act
    const response = await post(server.url);

    // Assess
    expect(await response.json()).toEqual({ request: 2 });
    expect(server.connections()).toBe(2);
  });

  it('sends a request again once only, however many kept-alive connections fail it', async () => {
    // Prepare: three connections kept alive by three requests at once; then the server resets
    // each connection a request comes on (as one that takes a request and fails would).
    let open = 3;
    const server = await rawProvider((socket, at) => {
      if (at.request >= 3 && at.connection < open) socket.destroy();
      else socket.write(ok(`{"connection":${at.connection}}`));
    });
    await Promise.all([0, 1, 2].map(async () => (await post(server.url)).text()));
    open = server.connections();

    // Act
    let error: unknown = null;
    const trouble = await troubleDuring(async () => {
      error = await post(server.url).catch((thrown: unknown) => thrown);
    });

    // Assess: sent on one kept-alive connection, again on a second, then the failure is the
    // answer (a connection failure, which the turn's retries judge), nothing uncaught.
    expect(trouble).toEqual([]);
    expect(error).toBeInstanceOf(TypeError);
    expect(server.requests()).toBe(3 + 2);
  });

  it('does not send again a request whose fresh connection was closed', async () => {
    // Prepare
    const server = await rawProvider((socket) => socket.destroy());

    // Act
    const error = await post(server.url).catch((thrown: unknown) => thrown);

    // Assess: a connection failure, the request sent once.
    expect(error).toBeInstanceOf(TypeError);
    expect(server.requests()).toBe(1);
  });

  it('refuses a status line fetch cannot represent, with nothing uncaught', async () => {
    // Prepare: a reason phrase with a control character (Node parses it; a Response refuses it).
    const server = await rawProvider((socket) => {
      socket.end(Buffer.from('HTTP/1.1 200 O\u0001K\r\ncontent-length: 2\r\n\r\nok', 'latin1'));
    });
    let error: unknown = null;

    // Act
    const trouble = await troubleDuring(async () => {
      error = await post(server.url).catch((thrown: unknown) => thrown);
    });

    // Assess
    expect(trouble).toEqual([]);
    expect(error).toBeInstanceOf(ReplyHeadersRefusedError);
  });

  it('skips 100 Continue and 103 Early Hints to the final reply', async () => {
    // Prepare
    const server = await rawProvider((socket) => {
      socket.write('HTTP/1.1 100 Continue\r\n\r\n');
      socket.write('HTTP/1.1 103 Early Hints\r\nlink: </a>; rel=preload\r\n\r\n');
      socket.write(ok());
    });

    // Act
    const response = await post(server.url);

    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('counts 1xx replies with the headers: a run of Early Hints is refused at the limit', async () => {
    // Prepare: 1,000 informational replies (29 KB in all), never a final one.
    const server = await rawProvider((socket) => {
      for (let hint = 0; hint < 1_000; hint += 1) socket.write('HTTP/1.1 103 Early Hints\r\n\r\n');
    });

    // Act
    const error = await post(server.url).catch((thrown: unknown) => thrown);

    // Assess
    expect(error).toBeInstanceOf(ReplyHeadersRefusedError);
  });

  it('does not take bytes past a content-length as the next reply on that connection', async () => {
    // Prepare: the first reply carries a second, unasked one after its body.
    const server = await rawProvider((socket, at) => {
      if (at.request === 0) socket.write(`${ok('{}')}${ok('{"unasked":true}')}`);
      else socket.write(ok('{"asked":true}'));
    });
    await (await post(server.url)).text();
    await new Promise((resolve) => setTimeout(resolve, 20));

    // Act
    const second = await (await post(server.url)).json();

    // Assess: the connection was dropped, not reused.
    expect(second).toEqual({ asked: true });
    expect(server.connections()).toBe(2);
  });

  it('keeps repeated headers, each Set-Cookie apart', async () => {
    // Prepare
    const server = await rawProvider((socket) => {
      socket.write(ok('{}', 'Set-Cookie: a=1\r\nset-cookie: b=2\r\nX-Many: 1\r\nx-many: 2\r\n'));
    });

    // Act
    const response = await post(server.url);

    // Assess
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.headers.get('x-many')).toBe('1, 2');
  });

  it('reads a chunked body with trailers, and an HTTP/1.0 body that ends with the connection', async () => {
    // Prepare
    const chunked = await rawProvider((socket) => {
      socket.write(
        'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ntrailer: x-t\r\n\r\n2\r\n{}\r\n0\r\nx-t: 1\r\n\r\n',
      );
    });
    const old = await rawProvider((socket) => socket.end('HTTP/1.0 200 OK\r\n\r\n{"old":1}'));

    // Act
    const [first, second] = await Promise.all([
      post(chunked.url).then((response) => response.text()),
      post(old.url).then((response) => response.text()),
    ]);
    const third = await (await post(old.url)).text();

    // Assess
    expect([first, second, third]).toEqual(['{}', '{"old":1}', '{"old":1}']);
    expect(old.connections()).toBe(2);
  });

  it('fails a connection closed mid-headers as a connection failure', async () => {
    // Prepare
    const server = await rawProvider((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-ty'));

    // Act
    const error = await post(server.url).catch((thrown: unknown) => thrown);

    // Assess
    expect(error).toBeInstanceOf(TypeError);
  });

  it('aborts in the header phase and in the body phase of a hung server, nothing uncaught', async () => {
    // Prepare: one server sends half its headers, the other half its body, then hang.
    const headers = await rawProvider((socket) => socket.write('HTTP/1.1 200 OK\r\nx-a: 1\r\n'));
    const body = await rawProvider((socket) =>
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n12345'),
    );
    const errors: unknown[] = [];

    // Act
    const trouble = await troubleDuring(async () => {
      const inHeaders = new AbortController();
      const first = post(headers.url, { signal: inHeaders.signal });
      setTimeout(() => inHeaders.abort(new Error('turn deadline')), 20);
      errors.push(await first.catch((thrown: unknown) => thrown));
      const inBody = new AbortController();
      const response = await post(body.url, { signal: inBody.signal });
      setTimeout(() => inBody.abort(new Error('sdk timeout')), 20);
      errors.push(await response.text().catch((thrown: unknown) => thrown));
    });

    // Assess
    expect(trouble).toEqual([]);
    expect(errors.map((error) => (error as Error).message)).toEqual([
      'turn deadline',
      'sdk timeout',
    ]);
  });

  it('leaves no listener on a signal shared by many requests, however each ended', async () => {
    // Prepare: replies read whole, cancelled, with no body, refused, and aborted on their way.
    const server = await rawProvider((socket, at) => {
      if (at.request % 4 === 3) socket.write('HTTP/1.1 204 No Content\r\n\r\n');
      else socket.write(ok());
    });
    const shared = new AbortController();
    const warnings: Error[] = [];
    const warn = (warning: Error) => warnings.push(warning);
    process.on('warning', warn);

    // Act
    for (let round = 0; round < 30; round += 1) {
      await (await post(server.url, { signal: shared.signal })).text();
      await (await post(server.url, { signal: shared.signal })).body?.cancel();
      await (await post(server.url, { signal: shared.signal })).arrayBuffer();
      await post(server.url, { signal: shared.signal });
    }
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', warn);

    // Assess
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    expect(warnings).toEqual([]);
  });

  it('leaves no listener behind on a kept-alive socket over 10,000 requests', async () => {
    // Prepare: the client's sockets, as they are made.
    const made: Socket[] = [];
    const record = (message: unknown) => made.push((message as { socket: Socket }).socket);
    subscribe('net.client.socket', record);
    const server = await rawProvider((socket) => socket.write(ok()));
    const listenersOf = (socket: Socket | undefined) =>
      (socket?.eventNames() ?? []).map((name) => `${String(name)}:${socket?.listenerCount(name)}`);
    for (let request = 0; request < 10; request += 1) await (await post(server.url)).text();
    const before = listenersOf(made[0]);

    // Act
    for (let request = 0; request < 10_000; request += 1) await (await post(server.url)).text();
    unsubscribe('net.client.socket', record);

    // Assess: one connection for all of them, with the listeners it had after ten.
    expect(server.connections()).toBe(1);
    expect(made).toHaveLength(1);
    expect(listenersOf(made[0])).toEqual(before);
  });
});

describe('a model server that hangs in its body', () => {
  it('ends the call at its deadline as a timeout, not never', async () => {
    // Prepare: headers and half the body, then nothing (the SDK's own timer stops at the headers).
    const server = await rawProvider((socket) =>
      socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"id":',
      ),
    );
    const model = modelFor(server.url.replace('/x', ''), {
      backoff: { baseDelayMs: 1, maxAttempts: 1 },
    });

    // Act
    const error = await failureOf(
      model.complete(requestOf([userAsks('Weather?')]), { timeoutMs: 300 }),
    );

    // Assess
    expect(error.failure).toBe('timeout');
  }, 10_000);
});

describe('providerFetch sending a body', () => {
  it('counts a string body in bytes, sends a view of bytes as it is, a stream chunked', async () => {
    // Prepare: a server that echoes what it got, and how it was framed.
    const received: string[] = [];
    const server = await rawProvider((socket) => socket.write(ok()));
    const echo = createHttpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const framing = request.headers['content-length'] ?? request.headers['transfer-encoding'];
        received.push(`${framing} ${Buffer.concat(chunks).toString('utf8')}`);
        response.end('{}');
      });
    });
    const port = await listenOnFreePort(echo);
    const url = `http://127.0.0.1:${port}/v1/x`;
    const bytes = new TextEncoder().encode('[{"a":"b"}]');

    // Act
    try {
      await (await post(url, { body: '{"city":"Zürich 東京 😀"}' })).text();
      await (await post(url, { body: bytes.subarray(1, 10) })).text();
      await (
        await post(url, {
          body: new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"streamed":'));
              controller.enqueue(new TextEncoder().encode('true}'));
              controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit)
      ).text();
    } finally {
      await new Promise((done) => echo.close(done));
    }

    // Assess
    expect(server.requests()).toBe(0);
    expect(received).toEqual([
      '30 {"city":"Zürich 東京 😀"}',
      '9 {"a":"b"}',
      'chunked {"streamed":true}',
    ]);
  });

  it('stops reading a streamed body, and cancels it, when the connection fails', async () => {
    // Prepare: a body that never ends, to a server that hangs up as soon as the head came.
    const server = await rawProvider(() => undefined);
    const hangUp = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('data', () => socket.destroy());
    });
    servers.push(hangUp);
    const port = await listenOnFreePort(hangUp);
    let cancelled: unknown = null;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64 * 1024));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });

    // Act
    const error = await post(`http://127.0.0.1:${port}/v1/x`, {
      body: endless,
      duplex: 'half',
    } as RequestInit).catch((thrown: unknown) => thrown);
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Assess
    expect(server.requests()).toBe(0);
    expect(error).toBeInstanceOf(TypeError);
    expect(cancelled).not.toBeNull();
  });
});
