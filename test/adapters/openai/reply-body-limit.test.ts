import { describe, expect, it } from 'vitest';
import {
  boundedFetch,
  REPLY_BODY_LIMIT_BYTES,
  ReplyBodyTooFragmentedError,
} from '../../../shared/adapters/openai/bounded-fetch';
import { pieceLimit } from '../../../shared/adapters/system/body-reads';
import { REPLY_LIMITS } from '../../../shared/conversation/tool-calls/reply-limits';
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

describe('boundedFetch counts the pieces a body arrives in', () => {
  /** A fetch whose body is `total` bytes in pieces of `size`; counts the pieces pulled. */
  const dripping = (total: number, size: number) => {
    const pulled = { pieces: 0 };
    const inner = async () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= total) return controller.close();
          pulled.pieces += 1;
          sent += size;
          controller.enqueue(new Uint8Array(size).fill(32));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    };
    return { fetch: boundedFetch(REPLY_BODY_LIMIT_BYTES, inner), pulled };
  };

  it('fails a body dripped a byte at a time, within its byte limit, past its pieces', async () => {
    // Prepare: 100 KiB, a byte a piece.
    const { fetch, pulled } = dripping(100 * 1024, 1);

    // Act
    const error = await (await fetch('http://model.test/')).text().catch((thrown) => thrown);

    // Assess
    expect(error).toBeInstanceOf(ReplyBodyTooFragmentedError);
    expect(pulled.pieces).toBeLessThan(pieceLimit(REPLY_BODY_LIMIT_BYTES) + 8);
  });

  it('reads a body of the whole limit in pieces of the least average size taken', async () => {
    // Prepare
    const { fetch } = dripping(REPLY_BODY_LIMIT_BYTES, 1_024);

    // Act
    const text = await (await fetch('http://model.test/')).text();

    // Assess
    expect(text.length).toBe(REPLY_BODY_LIMIT_BYTES);
  });
});
