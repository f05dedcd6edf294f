import { createServer, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server } from 'node:http2';
import { describe, expect, it } from 'vitest';
import {
  OpenAiSpeechToText,
  TRANSCRIPT_REPLY_LIMIT_BYTES,
} from '../../../shared/adapters/speech/openai-speech-to-text';
import { OpenAiTextToSpeech } from '../../../shared/adapters/speech/openai-text-to-speech';
import { PollyTextToSpeech } from '../../../shared/adapters/speech/polly-text-to-speech';
import { PROVIDER_SPEECH_LIMITS } from '../../../shared/adapters/speech/speech-stream';
import { wavHeader } from '../../../shared/adapters/speech/wav-format';
import { ERROR_REPLY_LIMIT_BYTES } from '../../../shared/adapters/system/body-reads';
import { MAX_SPOKEN_SECONDS, type Recording } from '../../../shared/ports/speech';
import { closedAfterEach } from '../../support/closed-after-each';
import { listenOnFreePort } from '../../support/free-port';
import { listenOnLoopback } from '../../support/http2-loopback';
import { collect, tonePcm, wavFile } from '../../support/speech-audio';
import { speechFailureOf } from '../../support/speech-failure';

const options = { timeoutMs: 20_000 };
const CHUNK = 64 * 1024;

/** A provider that writes `total` bytes as fast as the client reads them; counts what it wrote. */
interface FloodServer {
  readonly baseURL: string;
  /** Bytes written when the client closed the connection or the body ended. */
  readonly written: () => number;
  /** Resolves once the connection is closed, by either side. */
  readonly closed: Promise<void>;
}

const { servers } = closedAfterEach();

async function flood(
  head: Uint8Array,
  total: number,
  contentType: string,
  status = 200,
): Promise<FloodServer> {
  let written = 0;
  let closedResolve: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    closedResolve = resolve;
  });
  const server = createServer((request, response: ServerResponse) => {
    request.resume();
    request.on('end', async () => {
      response.writeHead(status, { 'content-type': contentType });
      response.once('close', () => closedResolve());
      response.write(head);
      written += head.length;
      const chunk = new Uint8Array(CHUNK).fill(1);
      while (written < total && !response.destroyed) {
        written += chunk.length;
        if (!response.write(chunk)) await drainedOrClosed(response);
      }
      response.end();
    });
  });
  servers.push(server);
  const port = await listenOnFreePort(server);
  return { baseURL: `http://127.0.0.1:${port}/v1`, written: () => written, closed };
}

/** Resolves when `response` can take more, or is gone; leaves no listener behind. */
function drainedOrClosed(response: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

const speechAdapter = (baseURL: string, format: 'pcm' | 'wav') =>
  new OpenAiTextToSpeech({
    baseURL,
    apiKey: 'sk-test',
    model: 'tts-1',
    voice: 'alloy',
    format: format === 'pcm' ? { kind: 'pcm', sampleRate: 24_000 } : { kind: 'wav' },
  });

/** A fmt chunk as written, field by field: what a lying provider can put there. */
function fmtHeader(fields: {
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bits: number;
}): Uint8Array {
  const header = wavHeader({ sampleRate: 16_000, channels: 1, sampleWidth: 2 }, 0xffff_ffff);
  const view = new DataView(header.buffer);
  view.setUint16(22, fields.channels, true);
  view.setUint32(24, fields.sampleRate >>> 0, true);
  view.setUint32(28, fields.byteRate >>> 0, true);
  view.setUint16(32, fields.blockAlign, true);
  view.setUint16(34, fields.bits, true);
  return header;
}

describe('an OpenAI-compatible speech server that floods', () => {
  it('is read up to the spoken limit and no further: the speech ends there, the body is cancelled', async () => {
    // Prepare: 200 s of 24 kHz PCM, sent as fast as it is read.
    const limitBytes = MAX_SPOKEN_SECONDS * 24_000 * 2;
    const server = await flood(new Uint8Array(0), 200 * 24_000 * 2, 'audio/pcm');

    // Act
    const speech = await speechAdapter(server.baseURL, 'pcm').synthesize('digits', options);
    const { bytes } = await collect(speech.chunks);
    await server.closed;

    // Assess
    expect(bytes.length).toBe(limitBytes);
    expect(server.written()).toBeLessThan(limitBytes + 8 * 1024 * 1024);
  });

  it('refuses a WAV header that never reaches its data as a malformed reply, past the header limit', async () => {
    // Prepare: RIFF, then a chunk that claims to go on forever, and 8 MiB of it.
    const head = new Uint8Array(20);
    const view = new DataView(head.buffer);
    head.set(
      [...'RIFF'].map((letter) => letter.charCodeAt(0)),
      0,
    );
    view.setUint32(4, 0xffff_ffff, true);
    head.set(
      [...'WAVEjunk'].map((letter) => letter.charCodeAt(0)),
      8,
    );
    view.setUint32(16, 0x7fff_ffff, true);
    const server = await flood(head, 8 * 1024 * 1024, 'audio/wav');

    // Act
    const error = await speechFailureOf(
      speechAdapter(server.baseURL, 'wav').synthesize('hello', options),
    );

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.message).toContain(String(PROVIDER_SPEECH_LIMITS.wavHeaderBytes));
  });

  it.each([
    [
      'a 4 GHz rate',
      { channels: 1, sampleRate: 4_000_000_000, byteRate: 8_000_000_000, blockAlign: 2, bits: 16 },
    ],
    [
      '24-bit samples',
      { channels: 1, sampleRate: 16_000, byteRate: 48_000, blockAlign: 3, bits: 24 },
    ],
    [
      'a wrapped byte rate',
      { channels: 2, sampleRate: 192_000, byteRate: 768_000 + 2 ** 32, blockAlign: 4, bits: 16 },
    ],
    [
      'a byte rate that disagrees',
      { channels: 1, sampleRate: 16_000, byteRate: 1, blockAlign: 2, bits: 16 },
    ],
    [
      '16 channels',
      { channels: 16, sampleRate: 16_000, byteRate: 512_000, blockAlign: 32, bits: 16 },
    ],
    [
      'a 96 kHz rate',
      { channels: 1, sampleRate: 96_000, byteRate: 192_000, blockAlign: 2, bits: 16 },
    ],
  ])('refuses a WAV header with %s as a malformed reply', async (_name, fields) => {
    // Prepare
    const server = await flood(fmtHeader(fields), 4 * 1024, 'audio/wav');

    // Act
    const error = await speechFailureOf(
      speechAdapter(server.baseURL, 'wav').synthesize('hello', options),
    );

    // Assess
    expect(error.failure).toBe('malformed_reply');
  });

  it('still takes a plain 16 kHz WAV', async () => {
    // Prepare
    const pcm = tonePcm(0.2, 16_000);
    const wav = wavFile(pcm, { sampleRate: 16_000, channels: 1, sampleWidth: 2 });
    const server = await flood(wav, wav.length, 'audio/wav');

    // Act
    const speech = await speechAdapter(server.baseURL, 'wav').synthesize('hello', options);
    const { bytes } = await collect(speech.chunks);

    // Assess
    expect(bytes.length).toBe(pcm.length);
  });
});

describe('a transcription server that floods', () => {
  it('answers a reply over the limit as a malformed reply, read no further', async () => {
    // Prepare: a JSON text of 1 MiB.
    const head = new TextEncoder().encode('{"text": "');
    const server = await flood(head, 1024 * 1024, 'application/json');
    const format = { sampleRate: 16_000, channels: 1, sampleWidth: 2 };
    const recording: Recording = {
      wav: wavFile(tonePcm(0.2, 16_000), format),
      format,
      durationSeconds: 0.2,
    };
    const stt = new OpenAiSpeechToText({
      baseURL: server.baseURL,
      apiKey: 'sk-test',
      model: 'whisper-1',
      maxCharacters: 2_000,
    });

    // Act
    const error = await speechFailureOf(stt.transcribe(recording, options));

    // Assess
    expect(error).toMatchObject({ failure: 'malformed_reply', direction: 'speech_to_text' });
    expect(error.message).toContain(String(TRANSCRIPT_REPLY_LIMIT_BYTES));
  });
});

describe('a speech provider whose error reply floods', () => {
  /** 64 MiB: what the client would read whole into the error's message. */
  const FLOOD_BYTES = 64 * 1024 * 1024;
  const READ_AT_MOST = 8 * 1024 * 1024;

  it('an OpenAI-compatible speech server: read no further than the error limit', async () => {
    // Prepare
    const head = new TextEncoder().encode('{"error": {"message": "');
    const server = await flood(head, FLOOD_BYTES, 'application/json', 500);

    // Act
    const error = await speechFailureOf(
      speechAdapter(server.baseURL, 'wav').synthesize('hello', options),
    );
    await server.closed;

    // Assess
    expect(error).toMatchObject({ failure: 'unavailable', direction: 'text_to_speech' });
    expect(error.message).toContain(String(ERROR_REPLY_LIMIT_BYTES));
    expect(server.written()).toBeLessThan(READ_AT_MOST);
  });

  it('a transcription server: read no further than the error limit', async () => {
    // Prepare
    const head = new TextEncoder().encode('{"error": {"message": "');
    const server = await flood(head, FLOOD_BYTES, 'application/json', 503);
    const format = { sampleRate: 16_000, channels: 1, sampleWidth: 2 };
    const recording: Recording = {
      wav: wavFile(tonePcm(0.2, 16_000), format),
      format,
      durationSeconds: 0.2,
    };
    const stt = new OpenAiSpeechToText({
      baseURL: server.baseURL,
      apiKey: 'k',
      model: 'whisper-1',
      maxCharacters: 2_000,
    });

    // Act
    const error = await speechFailureOf(stt.transcribe(recording, options));
    await server.closed;

    // Assess
    expect(error.failure).toBe('unavailable');
    expect(server.written()).toBeLessThan(READ_AT_MOST);
  });

  it('Amazon Polly: a malformed reply, read no further than the error limit', async () => {
    // Prepare: Polly's HTTP/2, a 500 whose body never ends.
    let written = 0;
    const server = createHttp2Server(async (request, response) => {
      for await (const _ of request);
      response.writeHead(500, {
        'content-type': 'application/json',
        'x-amzn-errortype': 'ServiceFailureException',
      });
      const chunk = new Uint8Array(CHUNK).fill(0x20);
      response.write('{"message": "');
      while (written < FLOOD_BYTES && !response.destroyed && !response.stream.closed) {
        written += chunk.length;
        if (!response.write(chunk)) await drainedOrClosed(response);
      }
      response.end();
    });
    const { endpoint, close } = await listenOnLoopback(server);
    const polly = new PollyTextToSpeech({
      region: 'eu-west-1',
      voice: 'Joanna',
      engine: 'neural',
      endpoint,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    });

    // Act
    const error = await speechFailureOf(polly.synthesize('hello', options));
    await close();

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.message).toContain(String(ERROR_REPLY_LIMIT_BYTES));
    expect(written).toBeLessThan(READ_AT_MOST);
  });
});
