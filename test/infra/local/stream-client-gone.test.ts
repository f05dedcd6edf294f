import { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { streamResponses } from '../../../functions/http/edge/stream-responses';
import { installLambdaStreamingGlobals } from '../../../infra/local/lambda-response-streaming';
import { type LocalApiServer, startLocalApiServer } from '../../../infra/local/local-api-server';

/** What a streamed body's producer did: chunks made, and whether it was told to stop. */
interface Produced {
  chunks: number;
  stopped: boolean;
}
const produced: Produced = { chunks: 0, stopped: false };
const producedForNonReader: Produced = { chunks: 0, stopped: false };
/** Enough chunks that a producer nobody stops runs well past the test. */
const CHUNKS = 100_000;

async function* audio(produced: Produced): AsyncGenerator<Uint8Array> {
  try {
    for (let chunk = 0; chunk < CHUNKS; chunk += 1) {
      produced.chunks += 1;
      yield new Uint8Array(3_200);
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    produced.stopped = true;
  }
}

let server: LocalApiServer;
/** The same route with a short stall limit, for a client that never reads. */
let stalling: LocalApiServer;
const STALL_MS = 300;
const BUFFERED_BYTES = 32 * 1024 * 1024;

beforeAll(async () => {
  installLambdaStreamingGlobals();
  const speaking = (into: Produced) =>
    streamResponses(async () => ({
      statusCode: 200,
      headers: { 'Content-Type': 'audio/pcm' },
      body: '',
      stream: audio(into),
    }));
  server = await startLocalApiServer({
    port: 0,
    routes: [
      { method: 'POST', path: '/speak', functionName: 'speech', handler: speaking(produced) },
    ],
  });
  stalling = await startLocalApiServer({
    port: 0,
    routes: [
      {
        method: 'POST',
        path: '/speak',
        functionName: 'speech',
        handler: speaking(producedForNonReader),
      },
      {
        method: 'GET',
        path: '/recording',
        functionName: 'speech',
        // A buffered answer larger than what the loopback socket's buffers hold.
        handler: async () => ({
          statusCode: 200,
          headers: { 'Content-Type': 'audio/wav' },
          body: Buffer.alloc(BUFFERED_BYTES).toString('base64'),
          isBase64Encoded: true,
        }),
      },
    ],
    limits: { writeStallTimeoutMs: STALL_MS },
  });
});

afterAll(() => Promise.all([server.close(), stalling.close()]));

describe('a streamed response whose client goes away', () => {
  it('stops the producer of its body, not only the writes', async () => {
    // Prepare
    const client = new AbortController();
    const response = await fetch(`${server.url}/speak`, { method: 'POST', signal: client.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();

    // Act
    client.abort();

    // Assess
    await vi.waitFor(() => expect(produced.stopped).toBe(true), { timeout: 10_000 });
    expect(produced.chunks).toBeLessThan(CHUNKS);
  });
});

describe('a streamed response whose client never reads', () => {
  it('is cut once no byte was taken for the stall limit, and its producer stops', async () => {
    // Prepare: a client that sends its request and then reads nothing.
    const { hostname, port } = new URL(stalling.url);
    const socket = connect(Number(port), hostname, () => {
      socket.write('POST /speak HTTP/1.1\r\nHost: local\r\nContent-Length: 0\r\n\r\n');
      socket.pause();
    });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

    // Act
    await vi.waitFor(() => expect(producedForNonReader.stopped).toBe(true), { timeout: 10_000 });
    socket.resume();
    await closed;

    // Assess
    expect(producedForNonReader.chunks).toBeLessThan(CHUNKS);
  });
});

describe('a buffered response whose client never reads', () => {
  it('is cut once it was not handed to the connection within the stall limit', async () => {
    // Prepare: a client that sends its request and then reads nothing.
    const { hostname, port } = new URL(stalling.url);
    const socket = connect(Number(port), hostname, () => {
      socket.write('GET /recording HTTP/1.1\r\nHost: local\r\n\r\n');
      socket.pause();
    });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    // The server's own side, watched (not replaced): a paused client cannot see the cut.
    const destroy = vi.spyOn(ServerResponse.prototype, 'destroy');

    // Act
    const cutRecording = () =>
      destroy.mock.contexts.some(
        (response) => (response as ServerResponse).req.url === '/recording',
      );
    await vi.waitFor(() => expect(cutRecording()).toBe(true), { timeout: 10_000 });
    destroy.mockRestore();
    socket.resume();
    await closed;

    // Assess
    expect(received).toBeLessThan(BUFFERED_BYTES);
  });
});
