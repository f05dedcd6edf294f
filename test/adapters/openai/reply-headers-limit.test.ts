import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  REPLY_HEADER_LIMIT_BYTES,
  REPLY_HEADER_READS,
} from '../../../shared/adapters/openai/provider-fetch';
import { OpenAiTextToSpeech } from '../../../shared/adapters/speech/openai-text-to-speech';
import { SpeechFailure } from '../../../shared/ports/speech';
import { closedAfterEach } from '../../support/closed-after-each';
import { listenOnFreePort } from '../../support/free-port';
import { speechFailureOf } from '../../support/speech-failure';
import { failureOf, modelFor, requestOf, userAsks } from './model-under-test';

const request = requestOf([userAsks('Weather in LA?')]);

/** Headers of 12 KiB: under every size limit (fetch's and ours), so only their reads count. */
const PADDING_BYTES = 12 * 1024;

const chatReply = (content: string): string =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'test-model',
    choices: [
      { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null },
    ],
  });

/** A whole HTTP/1.1 reply with `padding` bytes of one extra header. */
const replyOf = (body: string, contentType: string, padding = 0): string =>
  `HTTP/1.1 200 OK\r\ncontent-type: ${contentType}\r\n${
    padding > 0 ? `x-padding: ${'p'.repeat(padding)}\r\n` : ''
  }content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** How the first connection is answered; the later ones get `after` at once. */
type FirstReply = { readonly dripped: string } | { readonly atOnce: string };

/** A provider whose first reply is dripped a byte a millisecond (or sent at once). */
interface DrippingProvider {
  readonly baseURL: string;
  /** Bytes of the dripped reply written before the client hung up (or all of them). */
  readonly drippedBytes: () => number;
  readonly connections: () => number;
}

const { servers, sockets } = closedAfterEach();

async function drippingProvider(first: FirstReply, after: string): Promise<DrippingProvider> {
  let connections = 0;
  let dripped = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    const isFirst = connections === 0;
    connections += 1;
    // One request a connection: answered once its head has come (the bodies here are small).
    socket.once('data', () => {
      if (!isFirst) {
        socket.end(after);
        return;
      }
      if ('atOnce' in first) {
        socket.end(first.atOnce);
        return;
      }
      const bytes = Buffer.from(first.dripped);
      const drip = () => {
        if (socket.destroyed || socket.writableEnded) return;
        if (dripped === bytes.length) {
          socket.end();
          return;
        }
        socket.write(bytes.subarray(dripped, dripped + 1));
        dripped += 1;
        setTimeout(drip, 1);
      };
      drip();
    });
  });
  servers.push(server);
  const port = await listenOnFreePort(server);
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    drippedBytes: () => dripped,
    connections: () => connections,
  };
}

describe('a model server dripping its headers', () => {
  it('is hung up on within the reads allowed, and the model is asked again', async () => {
    // Prepare: the dripped reply is a good one; only how it comes is wrong.
    const dripped = replyOf(chatReply('Dripped.'), 'application/json', PADDING_BYTES);
    const provider = await drippingProvider(
      { dripped },
      replyOf(chatReply('Sunny.'), 'application/json'),
    );

    // Act
    const reply = await modelFor(provider.baseURL).complete(request, { timeoutMs: 60_000 });

    // Assess: the client left before the headers' end (fetch read all 12 KiB of them, a parse
    // a byte, and took the dripped reply).
    expect(reply.content).toBe('Sunny.');
    expect(provider.connections()).toBe(2);
    expect(provider.drippedBytes()).toBeLessThan(dripped.length);
  });

  it('fails the attempt as malformed_reply, not as a lost connection', async () => {
    // Prepare
    const dripped = replyOf(chatReply('Dripped.'), 'application/json', PADDING_BYTES);
    const provider = await drippingProvider({ dripped }, dripped);
    const model = modelFor(provider.baseURL, { backoff: { baseDelayMs: 1, maxAttempts: 1 } });

    // Act
    const error = await failureOf(model.complete(request, { timeoutMs: 60_000 }));

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.message).toContain(`more than ${REPLY_HEADER_READS} reads`);
  });

  it('refuses headers over the limit sent at once as malformed_reply, then asks again', async () => {
    // Prepare
    const oversized = replyOf(chatReply('Big.'), 'application/json', REPLY_HEADER_LIMIT_BYTES);
    const once = await drippingProvider({ atOnce: oversized }, oversized);
    const provider = await drippingProvider(
      { atOnce: oversized },
      replyOf(chatReply('Sunny.'), 'application/json'),
    );

    // Act
    const error = await failureOf(
      modelFor(once.baseURL, { backoff: { baseDelayMs: 1, maxAttempts: 1 } }).complete(request, {
        timeoutMs: 60_000,
      }),
    );
    const reply = await modelFor(provider.baseURL).complete(request, { timeoutMs: 60_000 });

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.message).toContain(`over ${REPLY_HEADER_LIMIT_BYTES} bytes`);
    expect(reply.content).toBe('Sunny.');
  });
});

describe('a speech server dripping its headers', () => {
  it('fails the synthesis as malformed_reply within the reads allowed', async () => {
    // Prepare: 0.1 s of silence at 24 kHz, a good reply dripped.
    const pcm = '\u0000'.repeat(4_800);
    const dripped = replyOf(pcm, 'audio/pcm', PADDING_BYTES);
    const provider = await drippingProvider({ dripped }, dripped);
    const speech = new OpenAiTextToSpeech({
      baseURL: provider.baseURL,
      apiKey: '',
      model: 'tts-test',
      voice: 'alloy',
      format: { kind: 'pcm', sampleRate: 24_000 },
    });

    // Act
    const error = await speechFailureOf(speech.synthesize('Hello.', { timeoutMs: 60_000 }));

    // Assess
    expect(error.failure).toBe(SpeechFailure.malformedReply);
    expect(provider.drippedBytes()).toBeLessThan(dripped.length);
  });
});
