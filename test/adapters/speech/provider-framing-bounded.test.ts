import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../../shared/adapters/openai/classify-failure';
import { providerFetch } from '../../../shared/adapters/openai/provider-fetch';
import { REPLY_BODY_LIMIT_BYTES } from '../../../shared/adapters/openai/reply-body-limit';
import { ReplyFramingRefusedError } from '../../../shared/adapters/openai/reply-framing-guard';
import { OpenAiSpeechToText } from '../../../shared/adapters/speech/openai-speech-to-text';
import { OpenAiTextToSpeech } from '../../../shared/adapters/speech/openai-text-to-speech';
import { SPEECH_READS } from '../../../shared/adapters/speech/speech-stream';
import { closedAfterEach } from '../../support/closed-after-each';
import { listenOnFreePort } from '../../support/free-port';
import { collect, nodeRecording, tonePcm } from '../../support/speech-audio';
import { speechFailureOf } from '../../support/speech-failure';

// Provider replies whose bytes around the body (chunk-size lines, extensions, a coding) are the
// attack: the byte limits count the body, so these were parsed until the deadline, or played.

const options = { timeoutMs: 20_000 };
const { servers, sockets } = closedAfterEach();

/** What the raw server saw of the request, and how much of its script it wrote. */
interface RawServer {
  readonly baseURL: string;
  readonly requestHead: () => string;
  readonly written: () => number;
}

/**
 * A server that reads a request's head and body, then writes `script`'s pieces one by one, each
 * after the last was taken by the socket (so a client that stops reading stops it).
 */
async function rawServer(script: () => Iterable<string | Uint8Array>): Promise<RawServer> {
  let head = '';
  let written = 0;
  const server = createServer((socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let received = '';
    const answer = async () => {
      for (const piece of script()) {
        if (socket.destroyed) return;
        written += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.byteLength;
        if (!socket.write(piece))
          await new Promise<void>((resolve) => {
            socket.once('drain', resolve);
            socket.once('close', resolve);
          });
      }
    };
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      head = received.slice(0, end);
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length - end - 4 < length) return;
      socket.off('data', onData);
      void answer();
    };
    socket.on('data', onData);
  });
  servers.push(server);
  const port = await listenOnFreePort(server);
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requestHead: () => head,
    written: () => written,
  };
}

const chunkedHead = (contentType: string) =>
  `HTTP/1.1 200 OK\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`;

/** A chunk-size line of `zeros` leading zeros (the parser takes them), then `body` as its chunk. */
function* zeroPaddedChunk(contentType: string, zeros: number, body = '\0\0'): Iterable<string> {
  yield chunkedHead(contentType);
  const block = '0'.repeat(64 * 1024);
  for (let sent = 0; sent < zeros; sent += block.length) yield block;
  yield `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
}

/** 2-byte chunks, each with an 8 KiB extension (under Node's 16 KiB per chunk). */
function* extendedChunks(count: number): Iterable<string> {
  yield chunkedHead('audio/pcm');
  const extension = `;x=${'a'.repeat(8 * 1024)}`;
  for (let chunk = 0; chunk < count; chunk += 1) yield `2${extension}\r\n\0\0\r\n`;
  yield '0\r\n\r\n';
}

const speechAdapter = (baseURL: string) =>
  new OpenAiTextToSpeech({
    baseURL,
    apiKey: 'sk-test',
    model: 'tts-1',
    voice: 'alloy',
    format: { kind: 'pcm', sampleRate: 24_000 },
  });

describe('a provider reply whose framing outgrows its body', () => {
  it('refuses a speech reply behind a chunk-size line of 8 MiB of zeros as malformed, read no further', async () => {
    // Prepare
    const server = await rawServer(() => zeroPaddedChunk('audio/pcm', 8 * 1024 * 1024));

    // Act
    const error = await speechFailureOf(
      speechAdapter(server.baseURL)
        .synthesize('hello', options)
        .then((speech) => collect(speech.chunks)),
    );

    // Assess
    expect(error).toMatchObject({ failure: 'malformed_reply', direction: 'text_to_speech' });
    // Not read to its end: the script's last piece was never taken.
    expect(server.written()).toBeLessThan(8 * 1024 * 1024);
  });

  it('refuses 2-byte chunks with 8 KiB extensions as malformed, read no further', async () => {
    // Prepare: 2,000 chunks, 16 MiB of extensions around 4,000 bytes of audio.
    const server = await rawServer(() => extendedChunks(2_000));

    // Act
    const error = await speechFailureOf(
      speechAdapter(server.baseURL)
        .synthesize('hello', options)
        .then((speech) => collect(speech.chunks)),
    );

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(server.written()).toBeLessThan(2_000 * 8 * 1024);
  });

  it('refuses a transcription reply behind a chunk-size line of zeros as malformed', async () => {
    // Prepare
    const server = await rawServer(() =>
      zeroPaddedChunk('application/json', 8 * 1024 * 1024, '{"text": "hello"}'),
    );
    const stt = new OpenAiSpeechToText({
      baseURL: server.baseURL,
      apiKey: 'sk-test',
      model: 'whisper-1',
      maxCharacters: 2_000,
    });

    // Act
    const error = await speechFailureOf(stt.transcribe(nodeRecording(0.2), options));

    // Assess
    expect(error).toMatchObject({ failure: 'malformed_reply', direction: 'speech_to_text' });
  });

  it('fails the body of any provider call (the model’s too) so, judged a malformed reply', async () => {
    // Prepare
    const server = await rawServer(() => zeroPaddedChunk('application/json', 8 * 1024 * 1024));
    // The model's own fetch, its body limit 256 KiB: the 8 MiB of zeros are framing, not body.
    const response = await providerFetch(REPLY_BODY_LIMIT_BYTES)(
      `${server.baseURL}/chat/completions`,
      {
        method: 'POST',
        body: '{}',
      },
    );

    // Act
    const error = await response.text().then(
      () => null,
      (thrown: unknown) => thrown,
    );

    // Assess
    expect(error).toBeInstanceOf(ReplyFramingRefusedError);
    expect(classifyFailure(error, (text) => text, 0)).toMatchObject({
      failure: 'malformed_reply',
      retryable: true,
    });
  });

  it('still takes speech streamed in small chunks, each size line apart from its data', async () => {
    // Prepare: 1,500 chunks of 960 bytes (20 ms at 24 kHz), the size line its own write.
    const pcm = tonePcm(30, 24_000);
    const server = await rawServer(function* () {
      yield chunkedHead('audio/pcm');
      for (let at = 0; at < pcm.length; at += 960) {
        const chunk = pcm.subarray(at, at + 960);
        yield `${chunk.length.toString(16)}\r\n`;
        yield chunk;
        yield '\r\n';
      }
      yield '0\r\n\r\n';
    });

    // Act
    const speech = await speechAdapter(server.baseURL).synthesize('hello', options);
    const { bytes } = await collect(speech.chunks);

    // Assess
    expect(bytes.length).toBe(pcm.length);
  });
});

describe('a provider reply in a coding nobody asked for', () => {
  it('asks for none, and refuses gzip-encoded speech as malformed, never plays it as audio', async () => {
    // Prepare: 0.5 s of speech, gzipped; what a client that ignored the coding would play.
    const gzipped = gzipSync(tonePcm(0.5, 24_000));
    const server = await rawServer(function* () {
      yield 'HTTP/1.1 200 OK\r\nContent-Type: audio/pcm\r\nContent-Encoding: gzip\r\n';
      yield `Content-Length: ${gzipped.length}\r\n\r\n`;
      yield gzipped;
    });

    // Act
    const error = await speechFailureOf(speechAdapter(server.baseURL).synthesize('hi', options));

    // Assess
    expect(server.requestHead().toLowerCase()).toContain('accept-encoding: identity');
    expect(error.failure).toBe('malformed_reply');
    expect(error.message).toContain('gzip');
  });
});

describe('a speech provider dripping its audio', () => {
  it('is read no more than its audio earns: malformed after about 400 reads, not 2,893', async () => {
    // Prepare: 2 bytes a write, a millisecond apart (each its own read), until the client leaves.
    let writes = 0;
    const server = createHttpServer((request, response) => {
      request.resume();
      request.on('end', async () => {
        response.writeHead(200, { 'content-type': 'audio/pcm' });
        while (!response.destroyed && writes < 10_000) {
          response.write(new Uint8Array(2));
          writes += 1;
          await delay(1);
        }
        response.end();
      });
    });
    servers.push(server);
    const port = await listenOnFreePort(server);

    // Act
    const error = await speechFailureOf(
      speechAdapter(`http://127.0.0.1:${port}/v1`)
        .synthesize('hello', options)
        .then((speech) => collect(speech.chunks)),
    );

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.message).toContain(`under ${SPEECH_READS.minAverageBytes} bytes`);
    expect(writes).toBeLessThan(SPEECH_READS.allowance + 600);
  });
});
