import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { describe, expect, it } from 'vitest';
import {
  providerFetch,
  ReplyHeadersRefusedError,
} from '../../../shared/adapters/openai/provider-fetch';
import { ReplyBodyTooLargeError } from '../../../shared/adapters/openai/reply-body-limit';
import { ERROR_REPLY_LIMIT_BYTES } from '../../../shared/adapters/system/body-reads';
import { closedAfterEach } from '../../support/closed-after-each';
import { listenOnFreePort } from '../../support/free-port';
import { selfSignedLoopback } from '../../support/self-signed-loopback';
import { releasable } from '../../support/speech-audio';

type Handler = (request: IncomingMessage, body: Buffer, response: ServerResponse) => void;

interface Provider {
  readonly url: string;
  /** The connections the client opened. */
  readonly connections: () => number;
  /** The bodies it sent, as text, with their content types. */
  readonly received: { contentType: string; body: string }[];
}

const { servers } = closedAfterEach();

async function provider(handle: Handler): Promise<Provider> {
  let connections = 0;
  const received: Provider['received'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({
        contentType: request.headers['content-type'] ?? '',
        body: body.toString('latin1'),
      });
      handle(request, body, response);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  servers.push(server);
  const port = await listenOnFreePort(server);
  return { url: `http://127.0.0.1:${port}/v1/x`, connections: () => connections, received };
}

/** The transport with no limit of its own on a success (an error reply is still counted). */
const fetchReply = providerFetch(null);

const echo: Handler = (request, body, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'x-method': request.method ?? '' });
  response.end(JSON.stringify({ body: body.toString('utf8') }));
};

/** A POST whose streamed reply gave its first piece: its reader and what aborts it. */
async function abortableAfterFirstPiece(
  url: string,
): Promise<{ controller: AbortController; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const controller = new AbortController();
  const response = await fetchReply(url, { method: 'POST', body: '{}', signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  return { controller, reader };
}

describe('providerFetch, what it keeps of fetch', () => {
  it('sends the method, headers and body, and gives the status, headers and body', async () => {
    // Prepare
    const server = await provider(echo);

    // Act
    const response = await fetchReply(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":"é"}',
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('x-method')).toBe('POST');
    expect(await response.json()).toEqual({ body: '{"a":"é"}' });
  });

  it('keeps the connection alive from one request to the next', async () => {
    // Prepare
    const server = await provider(echo);

    // Act
    for (const body of ['one', 'two', 'three']) {
      await (await fetchReply(server.url, { method: 'POST', body })).text();
    }

    // Assess
    expect(server.connections()).toBe(1);
  });

  it('sends a form as fetch encodes it, with its boundary', async () => {
    // Prepare
    const server = await provider(echo);
    const form = new FormData();
    form.append('model', 'whisper');
    form.append('file', new Blob([new Uint8Array([0, 1, 255])]), 'speech.wav');

    // Act
    await (await fetchReply(server.url, { method: 'POST', body: form })).text();

    // Assess
    const [sent] = server.received;
    expect(sent?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent?.body).toContain('name="model"\r\n\r\nwhisper');
    expect(sent?.body).toContain('\u0000\u0001\u00ff');
  });

  it('hands the body on as it arrives, before the server has finished', async () => {
    // Prepare: the second part is written only once the client has read the first.
    let finish: () => void = () => undefined;
    const server = await provider((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      finish = () => response.end('data: second\n\n');
    });
    const response = await fetchReply(server.url, { method: 'POST', body: '{}' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();

    // Act
    const first = new TextDecoder().decode((await reader.read()).value);
    finish();
    const rest: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      rest.push(new TextDecoder().decode(read.value));
    }

    // Assess
    expect(first).toBe('data: first\n\n');
    expect(rest.join('')).toBe('data: second\n\n');
  });

  it('rejects with the abort reason when aborted before the reply', async () => {
    // Prepare: a server that never answers.
    const server = await provider(() => undefined);
    const controller = new AbortController();
    const pending = fetchReply(server.url, {
      method: 'POST',
      body: '{}',
      signal: controller.signal,
    });

    // Act
    controller.abort();
    const error = await pending.catch((thrown: unknown) => thrown);

    // Assess
    expect((error as Error).name).toBe('AbortError');
  });

  it('errors a streaming body with the abort reason, and closes the connection', async () => {
    // Prepare
    const server = await provider((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
    });
    const { controller, reader } = await abortableAfterFirstPiece(server.url);

    // Act
    controller.abort();
    const error = await reader.read().catch((thrown: unknown) => thrown);
    await (await fetchReply(server.url, { method: 'POST', body: '{}' })).body?.cancel();

    // Assess: the next request could not reuse the aborted connection.
    expect((error as Error).name).toBe('AbortError');
    expect(server.connections()).toBe(2);
  });

  it('drops what the socket held when the body is aborted as a read resumes it', async () => {
    // Prepare: a body in many pieces, so the socket holds some while the stream is full.
    const server = await provider((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let piece = 0; piece < 64; piece += 1) response.write(`data: ${'x'.repeat(4096)}\n\n`);
    });
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    const { controller, reader } = await abortableAfterFirstPiece(server.url);
    await new Promise((resolve) => setTimeout(resolve, 20));

    // Act: a read takes the queued piece and resumes the socket on the next tick; the abort
    // comes first.
    const read = reader.read();
    controller.abort();
    await read;
    await new Promise((resolve) => setImmediate(resolve));
    const next = await reader.read().catch((thrown: unknown) => thrown);
    process.off('uncaughtException', record);

    // Assess: the body failed with the abort, and no piece was pushed into the closed stream.
    expect(next).toMatchObject({ name: 'AbortError' });
    expect(uncaught).toEqual([]);
  });

  it('throws a connection failure as fetch does: a TypeError whose cause says why', async () => {
    // Prepare: a port nobody listens on.
    const server = await provider(echo);
    const url = server.url;
    await new Promise<void>((resolve) => servers.splice(0)[0]?.close(() => resolve()));

    // Act
    const error = await fetchReply(url, { method: 'POST', body: '{}' }).catch(
      (thrown: unknown) => thrown,
    );

    // Assess
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('fails a body cut off by the server as terminated, a TypeError', async () => {
    // Prepare: 100 bytes announced, 5 sent.
    const server = await provider((_request, _body, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('12345', () => response.socket?.destroy());
    });
    const response = await fetchReply(server.url, { method: 'POST', body: '{}' });

    // Act
    const error = await response.text().catch((thrown: unknown) => thrown);

    // Assess
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('terminated');
  });

  it('gives a 204 no body', async () => {
    // Prepare
    const server = await provider((_request, _body, response) => {
      response.writeHead(204);
      response.end();
    });

    // Act
    const response = await fetchReply(server.url, { method: 'DELETE' });

    // Assess
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('speaks TLS to an https URL and checks the certificate: a self-signed one is refused', async () => {
    // Prepare: a TLS server whose certificate (made here by openssl) no authority signed.
    const server = createHttpsServer(await selfSignedLoopback(), (_request, response) =>
      response.end('{}'),
    );
    servers.push(server);
    const port = await listenOnFreePort(server);

    // Act
    const error = await fetchReply(`https://127.0.0.1:${port}/v1/x`, { method: 'POST' }).catch(
      (thrown: unknown) => thrown,
    );

    // Assess: a connection failure whose cause is the certificate.
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe(
      'DEPTH_ZERO_SELF_SIGNED_CERT',
    );
  });

  it('refuses a reply that is not HTTP as a refusal of its headers', async () => {
    // Prepare
    const server = await provider((_request, _body, response) => {
      response.socket?.end('SSH-2.0-OpenSSH_9.6\r\n\r\n');
    });

    // Act
    const error = await fetchReply(server.url, { method: 'POST', body: '{}' }).catch(
      (thrown: unknown) => thrown,
    );

    // Assess
    expect(error).toBeInstanceOf(ReplyHeadersRefusedError);
  });
});

describe('providerFetch counts a reply body where its pieces arrive', () => {
  /** A server writing `status`, then `body` in one write, never ending it; tells when its connection closed. */
  async function unended(status: number, body: string, headers: Record<string, string> = {}) {
    const { promise: connectionClosed, release: closed } = releasable();
    const server = await provider((_request, _body, response) => {
      response.socket?.once('close', closed);
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.write(body);
    });
    return { ...server, connectionClosed };
  }

  it('closes the connection at a piece past the limit as it arrives, before the caller reads', async () => {
    // Prepare: 8 KiB in one write, over a limit of 1 KiB.
    const server = await unended(200, 'x'.repeat(8 * 1024));
    const response = await providerFetch(1024)(server.url, { method: 'POST', body: '{}' });

    // Act: nothing is read until the server has seen its connection closed.
    await server.connectionClosed;
    const error = await response.text().catch((thrown: unknown) => thrown);

    // Assess: the caller's body is the transport's own, failed with the limit's error.
    expect(error).toBeInstanceOf(ReplyBodyTooLargeError);
    expect((error as Error).message).toBe(
      'the reply body is over 1024 bytes and was not read further',
    );
  });

  it('refuses a body announced over the limit unread, closing its connection', async () => {
    // Prepare: 2 KiB announced, 10 bytes sent, over a limit of 1 KiB.
    const server = await unended(200, '{"a":"b"}\n', { 'content-length': '2048' });

    // Act
    const response = await providerFetch(1024)(server.url, { method: 'POST', body: '{}' });
    await server.connectionClosed;
    const error = await response.text().catch((thrown: unknown) => thrown);

    // Assess
    expect(response.status).toBe(200);
    expect(error).toBeInstanceOf(ReplyBodyTooLargeError);
  });

  it(`holds an error reply to ${ERROR_REPLY_LIMIT_BYTES} bytes, and leaves a success to its reader when it has no limit`, async () => {
    // Prepare: two replies of 64 KiB, a 500 and a 200.
    const big = 'y'.repeat(64 * 1024);
    const failing = await unended(500, big);
    const speaking = await provider((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'audio/pcm' });
      response.end(big);
    });

    // Act
    const error = await (await fetchReply(failing.url, { method: 'POST', body: '{}' }))
      .text()
      .catch((thrown: unknown) => thrown);
    const spoken = await (await fetchReply(speaking.url, { method: 'POST', body: '{}' })).text();

    // Assess
    expect(error).toBeInstanceOf(ReplyBodyTooLargeError);
    expect((error as ReplyBodyTooLargeError).limitBytes).toBe(ERROR_REPLY_LIMIT_BYTES);
    expect(spoken).toBe(big);
  });

  it.each([301, 302, 307])(
    `holds a %i reply to ${ERROR_REPLY_LIMIT_BYTES} bytes too: the SDK reads any other than 2xx as an error`,
    async (status) => {
      // Prepare: a redirect with 64 KiB of body, to a caller with no limit of its own (speech).
      const redirect = await unended(status, 'z'.repeat(64 * 1024), { location: '/elsewhere' });

      // Act
      const response = await fetchReply(redirect.url, { method: 'POST', body: '{}' });
      const error = await response.text().catch((thrown: unknown) => thrown);

      // Assess
      expect(response.status).toBe(status);
      expect(error).toBeInstanceOf(ReplyBodyTooLargeError);
      expect((error as ReplyBodyTooLargeError).limitBytes).toBe(ERROR_REPLY_LIMIT_BYTES);
    },
  );

  it('closes the connection at the limit, drops what the socket still held, nothing uncaught', async () => {
    // Prepare: a body in many writes, never ended, the limit passed partway.
    const { promise: connectionClosed, release: closed } = releasable();
    const server = await provider((_request, _body, response) => {
      response.socket?.once('close', closed);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let piece = 0; piece < 64; piece += 1) response.write(`data: ${'x'.repeat(4096)}\n\n`);
    });
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);

    // Act
    const response = await providerFetch(64 * 1024)(server.url, { method: 'POST', body: '{}' });
    const error = await response.arrayBuffer().catch((thrown: unknown) => thrown);
    await connectionClosed;
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);

    // Assess
    expect(error).toBeInstanceOf(ReplyBodyTooLargeError);
    expect(uncaught).toEqual([]);
  });
});
