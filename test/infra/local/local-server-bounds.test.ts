import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routePath } from '../../../functions/http/contract/api-routes';
import { LIMITS } from '../../../functions/http/contract/request-schemas';
import { SPEECH_LIMITS } from '../../../functions/http/contract/speech-limits';
import type { EdgeResult } from '../../../functions/http/edge/route-request';
import { LOCAL_SERVER_LIMITS } from '../../../infra/local/client-guard';
import { type LocalApiServer, startLocalApiServer } from '../../../infra/local/local-api-server';
import { pieceLimit } from '../../../shared/adapters/system/body-reads';
import { apiKeyOf, NODE_A, useLocalStack } from '../../support/local-stack-harness';

const COMMAND = routePath('voice-command');

/** The key of the one node the bare servers below know. */
const KEY = 'node-a:secret';
const NODE = { nodeId: 'node-a', timezone: 'UTC', room: null };

/** A local server with one voice-command route answered by `handler`, knowing KEY's node. */
function commandServer(options: {
  readonly handler: (event: object) => Promise<EdgeResult>;
  readonly vouch?: (event: object, node: unknown) => void;
  readonly limits?: Parameters<typeof startLocalApiServer>[0]['limits'];
}): Promise<LocalApiServer> {
  return startLocalApiServer({
    port: 0,
    routes: [
      { method: 'POST', path: COMMAND, functionName: 'voice-command', handler: options.handler },
    ],
    authenticate: {
      check: async (key) => (key === KEY ? NODE : null),
      vouch: options.vouch ?? (() => undefined),
    },
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
}
const TRANSCRIBE = routePath('media-transcribe');
const TEN_MIB = 10 * 1024 * 1024;

/** A raw connection: what it received, and whether the server closed it. */
interface RawClient {
  readonly socket: Socket;
  /** Resolves with everything received once the server ends the connection. */
  readonly closed: Promise<string>;
  /** Bytes still waiting to be sent (never read by the server) when the answer arrived. */
  unsentAtAnswer(): number | null;
}

function rawClient(url: string): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const received: Buffer[] = [];
      let unsent: number | null = null;
      socket.on('data', (chunk: Buffer) => {
        unsent ??= socket.writableLength;
        received.push(chunk);
      });
      const closed = new Promise<string>((done) => {
        const finish = () => done(Buffer.concat(received).toString('utf8'));
        socket.once('end', finish);
        socket.once('close', finish);
      });
      // A write the server refuses to read ends in a reset; the answer was read before it.
      socket.on('error', () => undefined);
      resolve({ socket, closed, unsentAtAnswer: () => unsent });
    });
    socket.once('error', reject);
  });
}

/** The status and JSON body of a raw HTTP/1.1 response. */
function parsed(raw: string): { status: number; headers: string; json: unknown } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const status = Number(head.split(' ')[1]);
  return { status, headers: head.toLowerCase(), json: JSON.parse(body) };
}

/** The status of a raw HTTP/1.1 response, whatever its body's framing. */
const statusOf = (raw: string): number => Number(raw.split(' ')[1]);

const requestHead = (path: string, headers: Record<string, string | number>) =>
  `POST ${path} HTTP/1.1\r\nHost: local\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

/** The head of a transcription upload of the largest size, from a node whose key is right. */
const wholeUploadHead = () =>
  requestHead(TRANSCRIBE, {
    'Content-Type': 'multipart/form-data; boundary=b',
    'Content-Length': SPEECH_LIMITS.uploadBytes,
    'X-API-Key': apiKeyOf(NODE_A),
    Connection: 'close',
  });

/**
 * Writes `text` to `client` a byte a write (a pause between, so each is a read of its own) until
 * the server closes the connection: what the client received, and how many bytes it wrote.
 */
async function drippedUntilClosed(
  client: RawClient,
  text: string,
): Promise<{ readonly received: string; readonly sent: number }> {
  client.socket.setNoDelay(true);
  let sent = 0;
  const drip = setInterval(() => {
    if (sent < text.length && !client.socket.destroyed) client.socket.write(text[sent] ?? '');
    sent += 1;
  }, 1);
  const received = await client.closed.finally(() => clearInterval(drip));
  return { received, sent };
}

/** The refusal of headers that came in more reads than they may. */
const HEADERS_TOO_FRAGMENTED = {
  error: {
    code: 'headers_too_fragmented',
    details: [{ limit_pieces: pieceLimit(LOCAL_SERVER_LIMITS.headerBytes) }],
  },
};

/** A raw client that sent the head of the largest upload and `bytes` of its body. */
async function sentUpload(url: string, bytes: number): Promise<RawClient> {
  const client = await rawClient(url);
  client.socket.write(wholeUploadHead());
  if (bytes > 0) client.socket.write(Buffer.alloc(bytes, 0x20));
  return client;
}

describe('npm start reads no body before it knows who is asking', () => {
  const harness = useLocalStack();

  it('answers a keyless client announcing 10 MiB 401 JSON before one byte of its body, and closes', async () => {
    // Prepare
    const client = await rawClient(harness.stack.url);

    // Act: the headers only; the body never comes.
    client.socket.write(
      requestHead(COMMAND, { 'Content-Type': 'application/json', 'Content-Length': TEN_MIB }),
    );
    const answer = parsed(await client.closed);

    // Assess
    expect(answer.status).toBe(401);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.json).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('answers a wrong key sending 10 MiB 401 without reading the body', async () => {
    // Prepare
    const client = await rawClient(harness.stack.url);
    client.socket.write(
      requestHead(COMMAND, {
        'Content-Type': 'application/json',
        'Content-Length': TEN_MIB,
        'X-API-Key': 'node-a:wrong-key',
      }),
    );

    // Act: the whole body offered; the server answers and closes instead of reading it.
    client.socket.write(Buffer.alloc(TEN_MIB, 0x20));
    const answer = parsed(await client.closed);

    // Assess
    expect(answer.status).toBe(401);
    // Most of the body was still on the client's side: the server never read it.
    expect(client.unsentAtAnswer()).toBeGreaterThan(TEN_MIB / 2);
    const health = await fetch(`${harness.stack.url}/health`);
    expect(health.status).toBe(200);
  });

  it('answers a node announcing a body over its route’s limit 413 JSON at once', async () => {
    // Prepare
    const client = await rawClient(harness.stack.url);

    // Act
    client.socket.write(
      requestHead(COMMAND, {
        'Content-Type': 'application/json',
        'Content-Length': TEN_MIB,
        'X-API-Key': apiKeyOf(NODE_A),
      }),
    );
    const answer = parsed(await client.closed);

    // Assess
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({
      error: {
        code: 'payload_too_large',
        details: [{ limit_bytes: LIMITS.bodyBytes, received_bytes: TEN_MIB }],
      },
    });
  });

  it('stops reading a chunked body once it passes the limit: 413 JSON, without its end', async () => {
    // Prepare
    const client = await rawClient(harness.stack.url);
    client.socket.write(
      requestHead(COMMAND, {
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
        'X-API-Key': apiKeyOf(NODE_A),
      }),
    );
    const chunk = 64 * 1024;

    // Act: more than the limit, and then nothing (no last chunk).
    for (let sent = 0; sent <= LIMITS.bodyBytes; sent += chunk)
      client.socket.write(`${chunk.toString(16)}\r\n${' '.repeat(chunk)}\r\n`);
    const answer = parsed(await client.closed);

    // Assess
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('holds at most its budget of bodies at once: one more upload is 503 server_busy, unread', async () => {
    // Prepare: as many whole uploads as the budget holds, each sent but for its last byte.
    const upload = SPEECH_LIMITS.uploadBytes;
    const held: RawClient[] = [];
    for (let index = 0; index < LOCAL_SERVER_LIMITS.bodyBytesHeld / upload; index += 1) {
      const client = await sentUpload(harness.stack.url, upload - 1);
      held.push(client);
      // Read by the server (nothing left on this side) before the next one is sent.
      await vi.waitFor(() => expect(client.socket.writableLength).toBe(0), { timeout: 10_000 });
    }

    // Act: one more, every limit of its own met.
    const extra = await sentUpload(harness.stack.url, upload);
    const refused = parsed(await extra.closed);
    // A command's JSON body is not an upload: the uploads held leave it its own room.
    const command = await fetch(`${harness.stack.url}${COMMAND}`, {
      method: 'POST',
      headers: { 'X-API-Key': apiKeyOf(NODE_A), 'Content-Type': 'application/json' },
      body: JSON.stringify({ conversation_id: 'never-started', voice_command: 'hi' }),
    });
    const first = held[0] as RawClient;
    first.socket.write(' ');
    const answered = statusOf(await first.closed);
    const after = await sentUpload(harness.stack.url, upload);
    const taken = statusOf(await after.closed);
    for (const client of held) client.socket.destroy();

    // Assess
    expect(refused.status).toBe(503);
    expect(refused.headers).toContain('retry-after: 1');
    expect(refused.json).toMatchObject({
      error: {
        code: 'server_busy',
        details: [{ limit_body_bytes_held: LOCAL_SERVER_LIMITS.bodyBytesHeld }],
      },
    });
    expect(command.status).toBe(404);
    // Its body was never read: most of it was still on its side.
    expect(extra.unsentAtAnswer()).toBeGreaterThan(upload / 2);
    // Once a held upload is done, its bytes are free for the next one (which the handler reads:
    // a form without its parts).
    expect(answered).toBe(400);
    expect(taken).toBe(400);
  });

  it('holds no budget for a size announced and not sent: the next upload is read', async () => {
    // Prepare: as many uploads as the budget holds, announced whole, not one byte sent.
    const upload = SPEECH_LIMITS.uploadBytes;
    const announced: RawClient[] = [];
    for (let index = 0; index < LOCAL_SERVER_LIMITS.bodyBytesHeld / upload; index += 1) {
      announced.push(await sentUpload(harness.stack.url, 0));
    }

    // Act: another node's whole upload.
    const other = await sentUpload(harness.stack.url, upload);
    const answered = statusOf(await other.closed);
    for (const client of announced) client.socket.destroy();

    // Assess: read and answered by the handler (a form without its parts), not 503 server_busy.
    expect(answered).toBe(400);
  });

  it('answers a client dripping its headers a byte at a time 400 headers_too_fragmented, unread past it', async () => {
    // Prepare: headers that fit 16 KiB, sent one byte a write with a pause between (each a read).
    const client = await rawClient(harness.stack.url);
    client.socket.setNoDelay(true);
    const head = requestHead(COMMAND, {
      'Content-Type': 'application/json',
      'X-API-Key': apiKeyOf(NODE_A),
      'X-Padding': 'x'.repeat(2_000),
    });

    // Act
    const { received, sent } = await drippedUntilClosed(client, head);
    const answer = parsed(received);

    // Assess: refused after its reads, long before its headers' timeout or their end.
    expect(answer.status).toBe(400);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.json).toMatchObject(HEADERS_TOO_FRAGMENTED);
    expect(sent).toBeLessThan(head.length);
    const health = await fetch(`${harness.stack.url}/health`);
    expect(health.status).toBe(200);
  });

  it('answers headers dripped on a kept-alive connection after its answer 400 headers_too_fragmented', async () => {
    // Prepare: a connection that asked once and has its answer.
    const client = await rawClient(harness.stack.url);
    client.socket.setNoDelay(true);
    client.socket.write('GET /health HTTP/1.1\r\nHost: local\r\n\r\n');
    await once(client.socket, 'data');
    const next = `GET /health HTTP/1.1\r\nHost: local\r\nX-Padding: ${'x'.repeat(2_000)}\r\n\r\n`;

    // Act: the next request's headers, a byte a write.
    const { received, sent } = await drippedUntilClosed(client, next);

    // Assess: the first answer, then the refusal in JSON, then the close.
    expect(received.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400']);
    const refusal = parsed(received.slice(received.lastIndexOf('HTTP/1.1 ')));
    expect(refusal.headers).toContain('content-type: application/json');
    expect(refusal.json).toMatchObject(HEADERS_TOO_FRAGMENTED);
    expect(sent).toBeLessThan(next.length);
  });

  it("serves a kept-alive connection's requests whatever their number, each head in few reads", async () => {
    // Prepare: one connection, many requests one after the other (each head one write).
    const client = await rawClient(harness.stack.url);
    const health = 'GET /health HTTP/1.1\r\nHost: local\r\n\r\n';
    const answers: string[] = [];

    // Act: more requests than a head may take reads; each waits for its answer first.
    for (let sent = 0; sent < pieceLimit(LOCAL_SERVER_LIMITS.headerBytes) + 20; sent += 1) {
      client.socket.write(health);
      const answer = await Promise.race([
        once(client.socket, 'data').then(([chunk]) => String(chunk)),
        client.closed.then(() => 'closed'),
      ]);
      answers.push(answer);
      if (answer === 'closed') break;
    }
    client.socket.end();

    // Assess
    expect(answers).toHaveLength(pieceLimit(LOCAL_SERVER_LIMITS.headerBytes) + 20);
    const statuses = answers.join('').match(/HTTP\/1\.1 \d+/g) ?? [];
    expect(new Set(statuses)).toEqual(new Set(['HTTP/1.1 200']));
  });

  it('answers headers over 16 KiB with a JSON 431', async () => {
    // Prepare
    const client = await rawClient(harness.stack.url);

    // Act
    client.socket.write(requestHead(COMMAND, { 'X-Padding': 'x'.repeat(20 * 1024) }));
    const answer = parsed(await client.closed);

    // Assess
    expect(answer.status).toBe(431);
    expect(answer.json).toMatchObject({ error: { code: 'headers_too_large' } });
  });
});

describe('the local server bounds slow clients and connections', () => {
  let server: LocalApiServer;

  beforeAll(async () => {
    server = await commandServer({
      handler: async () => ({ statusCode: 200, body: '{}' }),
      limits: {
        headersTimeoutMs: 500,
        requestTimeoutMs: 1_000,
        checkIntervalMs: 100,
        connectionsPerAddress: 2,
        connections: 3,
      },
    });
  });

  afterAll(() => server.close());

  it('cuts a client that never finishes its headers with a JSON 408', async () => {
    // Prepare
    const client = await rawClient(server.url);

    // Act: a header line, and then nothing.
    client.socket.write(`POST ${COMMAND} HTTP/1.1\r\nHost: local\r\nX-Slow: `);
    const answer = parsed(await client.closed);

    // Assess
    expect(answer.status).toBe(408);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.json).toMatchObject({ error: { code: 'request_timeout', details: [] } });
  });

  it('cuts a client sending its body a byte at a time with a JSON 408', async () => {
    // Prepare
    const client = await rawClient(server.url);
    client.socket.write(
      requestHead(COMMAND, {
        'Content-Type': 'application/json',
        'Content-Length': 1_000,
        'X-API-Key': KEY,
      }),
    );

    // Act: a byte every 100 ms, never the whole body.
    const drip = setInterval(() => client.socket.write(' '), 100);
    const answer = parsed(await client.closed.finally(() => clearInterval(drip)));

    // Assess
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject({ error: { code: 'request_timeout' } });
  });

  it('answers a node dripping its body a byte at a time 400 body_too_fragmented, unread past it', async () => {
    // Prepare: a body of 3,000 bytes announced, sent one byte a write with a pause between.
    const client = await rawClient(server.url);
    client.socket.setNoDelay(true);
    client.socket.write(
      requestHead(COMMAND, {
        'Content-Type': 'application/json',
        'Content-Length': 3_000,
        'X-API-Key': KEY,
      }),
    );

    // Act
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < 3_000 && !client.socket.destroyed) client.socket.write(' ');
      sent += 1;
    }, 1);
    const answer = parsed(await client.closed.finally(() => clearInterval(drip)));

    // Assess
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      error: {
        code: 'body_too_fragmented',
        details: [{ limit_pieces: pieceLimit(LIMITS.bodyBytes) }],
      },
    });
    expect(sent).toBeLessThan(3_000);
  });

  it('answers a request that is not HTTP with a JSON 400', async () => {
    // Prepare
    const client = await rawClient(server.url);

    // Act
    client.socket.write('HELLO THERE\r\n\r\n');
    const answer = parsed(await client.closed);

    // Assess
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { code: 'invalid_http' } });
  });

  it('refuses connections beyond the limit from one address with a JSON 503, then takes one again', async () => {
    // Prepare: two connections held open.
    const held = [await rawClient(server.url), await rawClient(server.url)];

    // Act
    const third = await rawClient(server.url);
    const refused = parsed(await third.closed);
    for (const client of held) client.socket.destroy();
    await Promise.all(held.map((client) => client.closed));

    // Assess
    expect(refused.status).toBe(503);
    expect(refused.headers).toContain('retry-after: 1');
    expect(refused.json).toMatchObject({ error: { code: 'too_many_connections' } });
    // Once the server has seen them close, the address may connect again.
    await vi.waitFor(async () => expect((await fetch(`${server.url}/health`)).status).toBe(200), {
      timeout: 10_000,
    });
  });
});

describe('the local server answers in JSON what Node would answer itself', () => {
  let server: LocalApiServer;
  /** The server's verdict on each event's key, as the real handlers take it. */
  const verdicts = new WeakMap<object, unknown>();

  beforeAll(async () => {
    server = await commandServer({
      handler: async (event: object) => ({
        statusCode: verdicts.get(event) === null ? 401 : 200,
        body: '{}',
      }),
      vouch: (event, node) => verdicts.set(event, node),
    });
  });

  afterAll(() => server.close());

  it.each([
    ['an expectation Node does not know', 'Expect: something-else', 417, 'expectation_failed'],
    ['an HTTP/1.1 request without Host', null, 400, 'invalid_http'],
  ])('answers %s in JSON, and closes', async (_name, header, status, code) => {
    // Prepare
    const client = await rawClient(server.url);
    const host = header === null ? '' : 'Host: local\r\n';
    const extra = header === null ? '' : `${header}\r\n`;

    // Act
    client.socket.write(
      `POST ${COMMAND} HTTP/1.1\r\n${host}${extra}X-API-Key: ${KEY}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    );
    const answer = parsed(await client.closed);

    // Assess
    expect(answer.status).toBe(status);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.json).toMatchObject({ error: { code } });
  });

  it.each(['gzip, chunked', 'deflate, chunked', 'x-anything, chunked'])(
    'refuses Transfer-Encoding: %s 400 in JSON, its coded body never taken as the body',
    async (coding) => {
      // Prepare: a body Node would hand on as it came, the gzip bytes of "{}" read as JSON.
      const client = await rawClient(server.url);

      // Act
      client.socket.write(
        `${requestHead(COMMAND, {
          'X-API-Key': KEY,
          'Content-Type': 'application/json',
          'Transfer-Encoding': coding,
        })}2\r\n{}\r\n0\r\n\r\n`,
      );
      const answer = parsed(await client.closed);

      // Assess
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ error: { code: 'invalid_http' } });
    },
  );

  it('still takes Transfer-Encoding: chunked in any case, with spaces around it', async () => {
    // Prepare
    const client = await rawClient(server.url);

    // Act
    client.socket.write(
      `${requestHead(COMMAND, {
        'X-API-Key': KEY,
        'Content-Type': 'application/json',
        'Transfer-Encoding': ' CHUNKED ',
        Connection: 'close',
      })}2\r\n{}\r\n0\r\n\r\n`,
    );
    const received = await client.closed;

    // Assess
    expect(statusOf(received)).toBe(200);
  });

  it('answers CONNECT 405 in JSON rather than dropping the connection', async () => {
    // Prepare
    const client = await rawClient(server.url);

    // Act
    client.socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    const answer = parsed(await client.closed);

    // Assess
    expect(answer.status).toBe(405);
    expect(answer.json).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  it.each([
    ['without a key', {}, 401],
    [
      'with a key and a body over the limit',
      { 'X-API-Key': KEY, 'Content-Length': 10_000_000 },
      413,
    ],
  ])(
    'answers Expect: 100-continue %s with its refusal, never a 100 Continue',
    async (_name, headers, status) => {
      // Prepare
      const client = await rawClient(server.url);

      // Act: the headers only, waiting to be told to send the body.
      client.socket.write(
        requestHead(COMMAND, {
          'Content-Type': 'application/json',
          'Content-Length': 1_000,
          Expect: '100-continue',
          ...headers,
        }),
      );
      const received = await client.closed;

      // Assess
      expect(received).not.toContain('100 Continue');
      expect(parsed(received).status).toBe(status);
    },
  );

  it('tells a node with a key and Expect: 100-continue to send its body, then answers', async () => {
    // Prepare
    const client = await rawClient(server.url);
    client.socket.write(
      requestHead(COMMAND, {
        'Content-Type': 'application/json',
        'Content-Length': 2,
        Expect: '100-continue',
        'X-API-Key': KEY,
        Connection: 'close',
      }),
    );

    // Act: the body only once the server asked for it.
    await new Promise<void>((resolve) =>
      client.socket.once('data', (chunk: Buffer) => {
        expect(chunk.toString('utf8')).toMatch(/^HTTP\/1\.1 100 Continue/);
        client.socket.write('{}');
        resolve();
      }),
    );
    const received = await client.closed;

    // Assess
    expect(received).toContain('HTTP/1.1 200');
  });
});

describe('the local server counts the reads of headers sent behind an answer', () => {
  let server: LocalApiServer;
  let called: () => void = () => undefined;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    server = await commandServer({
      // An answer that takes its time (a turn, a synthesis): held until the test releases it.
      handler: () =>
        new Promise<EdgeResult>((resolve) => {
          release = () => resolve({ statusCode: 200, body: '{}' });
          called();
        }),
    });
  });

  afterAll(() => server.close());

  it('refuses the next request’s headers dripped a byte at a time while an answer is in hand', async () => {
    // Prepare: a request whose answer is pending.
    const client = await rawClient(server.url);
    client.socket.setNoDelay(true);
    const inHand = new Promise<void>((resolve) => {
      called = resolve;
    });
    client.socket.write(
      `${requestHead(COMMAND, { 'Content-Type': 'application/json', 'Content-Length': 2, 'X-API-Key': KEY })}{}`,
    );
    await inHand;
    const next = `GET /health HTTP/1.1\r\nHost: local\r\nX-Padding: ${'x'.repeat(2_000)}\r\n\r\n`;

    // Act: the next request's headers, a byte a write, behind the pending answer.
    const { received, sent } = await drippedUntilClosed(client, next).finally(() => release());

    // Assess
    expect(received).toContain('headers_too_fragmented');
    expect(sent).toBeLessThan(next.length);
  });
});

describe('the local server bounds the requests pipelined on one connection', () => {
  it('runs at most its requests in hand at once: the next is a JSON 503, nothing after it runs', async () => {
    // Prepare: a handler that holds every request until the test lets them go.
    let running = 0;
    let mostAtOnce = 0;
    let calls = 0;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await commandServer({
      handler: async () => {
        calls += 1;
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await released;
        running -= 1;
        return { statusCode: 200, body: '{}' };
      },
    });
    const client = await rawClient(server.url);
    const one = `${requestHead(COMMAND, {
      'X-API-Key': KEY,
      'Content-Type': 'application/json',
      'Content-Length': 2,
    })}{}`;

    // Act: 300 requests in one write, as a client pipelining them sends them.
    client.socket.write(one.repeat(300));
    await vi.waitFor(() => expect(calls).toBe(LOCAL_SERVER_LIMITS.requestsPerConnection));
    release();
    const received = await client.closed;
    await server.close();

    // Assess
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d+)/g)].map((match) => match[1]);
    const limit = LOCAL_SERVER_LIMITS.requestsPerConnection;
    expect(mostAtOnce).toBe(limit);
    expect(calls).toBe(limit);
    expect(statuses).toEqual([...Array(limit).fill('200'), '503']);
    expect(received).toContain('"code":"too_many_requests_in_hand"');
  });

  it('serves requests sent one after another on a kept-alive connection, each after its answer', async () => {
    // Prepare
    const server = await commandServer({ handler: async () => ({ statusCode: 200, body: '{}' }) });
    const client = await rawClient(server.url);
    const one = (close: boolean) =>
      `${requestHead(COMMAND, {
        'X-API-Key': KEY,
        'Content-Type': 'application/json',
        'Content-Length': 2,
        ...(close ? { Connection: 'close' } : {}),
      })}{}`;
    let answers = 0;
    client.socket.on('data', (chunk: Buffer) => {
      answers += chunk.toString('utf8').split('HTTP/1.1 200').length - 1;
    });

    // Act: 40 requests, more than may be in hand at once, each once the one before is answered.
    for (let sent = 1; sent < 40; sent += 1) {
      client.socket.write(one(false));
      await vi.waitFor(() => expect(answers).toBe(sent));
    }
    client.socket.write(one(true));
    await client.closed;
    await server.close();

    // Assess
    expect(answers).toBe(40);
  });
});
