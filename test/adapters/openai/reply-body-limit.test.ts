import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { providerFetch } from '../../../shared/adapters/openai/provider-fetch';
import {
  REPLY_BODY_LIMIT_BYTES,
  ReplyBodyTooFragmentedError,
} from '../../../shared/adapters/openai/reply-body-limit';
import { pieceLimit } from '../../../shared/adapters/system/body-reads';
import { REPLY_LIMITS } from '../../../shared/conversation/tool-calls/reply-limits';
import { closedAfterEach } from '../../support/closed-after-each';
import { listenOnFreePort } from '../../support/free-port';
import type { StreamedBodyStep } from '../../support/scripted-llm-server';
import { useScriptedLlmServer } from '../../support/use-scripted-llm-server';
import { failureOf, modelFor, requestOf, userAsks } from './model-under-test';

const server = useScriptedLlmServer();
const request = requestOf([userAsks('Weather in LA?')]);
const HUGE_TIMES = 1024;
/** What the server's and the client's socket buffers can hold between them on loopback. */
const SOCKET_BUFFERS_BYTES = 8 * 1024 * 1024;

/** 64 MiB of a reply's text, 256 times the limit: never sent whole when the client hangs up. */
const hugeBody = (): StreamedBodyStep => ({
  streamedBody: { chunk: 'x'.repeat(64 * 1024), times: HUGE_TIMES },
  written: { bytes: 0, finished: false },
});

describe('OpenAiLanguageModel reply body limit', () => {
  it('cuts off a body over the limit unread, retries, and takes the next sane reply', async () => {
    // Prepare
    const huge = hugeBody();
    server.enqueue(huge, { reply: { content: 'Sunny.' } });

    // Act
    const reply = await modelFor(server.baseURL).complete(request, { timeoutMs: 30_000 });

    // Assess: the client hung up at the limit; the server got as far as the sockets' buffers
    // (a few MiB on loopback) let it, not through the 64 MiB.
    expect(reply.content).toBe('Sunny.');
    expect(server.requests).toHaveLength(2);
    expect(huge.written.finished).toBe(false);
    expect(huge.written.bytes).toBeLessThan(HUGE_TIMES * 64 * 1024);
    expect(huge.written.bytes).toBeLessThan(REPLY_BODY_LIMIT_BYTES + SOCKET_BUFFERS_BYTES);
  });

  it('fails as malformed_reply after the allowed attempts when every body is over', async () => {
    // Prepare
    const bodies = [hugeBody(), hugeBody(), hugeBody()];
    server.enqueue(...bodies);
    const model = modelFor(server.baseURL, { backoff: { baseDelayMs: 1, maxAttempts: 3 } });

    // Act
    const error = await failureOf(model.complete(request, { timeoutMs: 30_000 }));

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.attempts).toBe(3);
    expect(error.message).toContain(`over ${REPLY_BODY_LIMIT_BYTES} bytes`);
    expect(bodies.every((body) => !body.written.finished)).toBe(true);
  });

  it('refuses a body whose content-length is over the limit, then retries', async () => {
    // Prepare: sent whole by the server with its length announced.
    server.enqueue(
      { rawBody: ' '.repeat(REPLY_BODY_LIMIT_BYTES + 1) },
      { reply: { content: 'Ok.' } },
    );

    // Act
    const reply = await modelFor(server.baseURL).complete(request, { timeoutMs: 30_000 });

    // Assess
    expect(reply.content).toBe('Ok.');
    expect(server.requests).toHaveLength(2);
  });

  it("reads a reply just under the limit, its text cut just past the turn's limit", async () => {
    // Prepare: a text 4 KiB short of the limit (the envelope fits), over the turn's text limit
    // but not the body's.
    const length = REPLY_BODY_LIMIT_BYTES - 4096;
    server.enqueue({ reply: { content: 'y'.repeat(length) } });

    // Act
    const reply = await modelFor(server.baseURL).complete(request, { timeoutMs: 30_000 });

    // Assess: read, and cut just past the turn's text limit (the turn never reads it).
    expect(reply.content).toBe('y'.repeat(REPLY_LIMITS.textBytes + 1));
    expect(server.requests).toHaveLength(1);
  });
});

describe('providerFetch counts the pieces a body arrives in', () => {
  const { servers, sockets } = closedAfterEach();

  /**
   * A server whose reply announces `total` bytes and writes them in pieces of `size`, a
   * millisecond apart (each its own read of the client's socket); counts the bytes it wrote.
   */
  const dripping = async (total: number, size: number) => {
    const written = { bytes: 0 };
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.once('data', () => {
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${total}\r\n\r\n`,
        );
        const drip = () => {
          if (socket.destroyed || socket.writableEnded) return;
          if (written.bytes >= total) {
            socket.end();
            return;
          }
          socket.write(Buffer.alloc(size, 32));
          written.bytes += size;
          setTimeout(drip, 1);
        };
        drip();
      });
    });
    servers.push(server);
    const port = await listenOnFreePort(server);
    return { url: `http://127.0.0.1:${port}/v1/chat/completions`, written };
  };
  const fetchReply = providerFetch(REPLY_BODY_LIMIT_BYTES);

  it('fails a body dripped a byte at a time, within its byte limit, past its pieces', async () => {
    // Prepare: 100 KiB, a byte a piece (100 s of drip, were it read to its end).
    const total = 100 * 1024;
    const { url, written } = await dripping(total, 1);

    // Act
    const response = await fetchReply(url, { method: 'POST', body: '{}' });
    const error = await response.text().catch((thrown: unknown) => thrown);

    // Assess: refused after its pieces, the connection closed long before the drip's end.
    expect(error).toBeInstanceOf(ReplyBodyTooFragmentedError);
    expect((error as Error).message).toContain(`more than ${pieceLimit(REPLY_BODY_LIMIT_BYTES)}`);
    expect(written.bytes).toBeLessThan(total / 10);
  });

  it('reads a body of the whole limit in pieces of the least average size taken', async () => {
    // Prepare
    const { url } = await dripping(REPLY_BODY_LIMIT_BYTES, 1_024);

    // Act
    const text = await (await fetchReply(url, { method: 'POST', body: '{}' })).text();

    // Assess
    expect(text.length).toBe(REPLY_BODY_LIMIT_BYTES);
  });
});
