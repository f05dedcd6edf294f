import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { streamResponses } from '../../../functions/http/edge/stream-responses';
import { installLambdaStreamingGlobals } from '../../../infra/local/lambda-response-streaming';
import { type LocalApiServer, startLocalApiServer } from '../../../infra/local/local-api-server';

/** What the streamed body's producer did: chunks made, and whether it was told to stop. */
const produced = { chunks: 0, stopped: false };
/** Enough chunks that a producer nobody stops runs well past the test. */
const CHUNKS = 100_000;

async function* audio(): AsyncGenerator<Uint8Array> {
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

beforeAll(async () => {
  installLambdaStreamingGlobals();
  const handler = streamResponses(async () => ({
    statusCode: 200,
    headers: { 'Content-Type': 'audio/pcm' },
    body: '',
    stream: audio(),
  }));
  server = await startLocalApiServer({
    port: 0,
    routes: [{ method: 'POST', path: '/speak', functionName: 'speech', handler }],
  });
});

afterAll(() => server.close());

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
