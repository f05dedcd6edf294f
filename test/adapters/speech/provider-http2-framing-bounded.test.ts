import { constants, createServer as createHttp2Server } from 'node:http2';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PollyTextToSpeech } from '../../../shared/adapters/speech/polly-text-to-speech';
import { TRANSCRIBE_CHUNK_MS } from '../../../shared/adapters/speech/transcribe-audio';
import { TranscribeSpeechToText } from '../../../shared/adapters/speech/transcribe-speech-to-text';
import type { Recording } from '../../../shared/ports/speech';
import { closedAfterEach } from '../../support/closed-after-each';
import { FakeTiming } from '../../support/fake-timing';
import { listenOnLoopback } from '../../support/http2-loopback';
import { startScriptedTranscribeServer } from '../../support/scripted-transcribe-server';
import { TEST_AWS_CREDENTIALS } from '../../support/sigv4-verifier';
import { collect, tonePcm, wavFile } from '../../support/speech-audio';
import { speechFailureOf } from '../../support/speech-failure';

/**
 * Polly and Transcribe streaming speak HTTP/2 through the AWS SDK's own handler, where
 * `providerFetch`'s HTTP/1.1 framing guard does not reach: a server can send frames that carry no
 * body (padding, WINDOW_UPDATE, PRIORITY, frame types nobody knows), which Node does not count as
 * a flood and no body limit sees. Against such a server, scripted frame by frame on loopback, the
 * call must fail as a malformed reply after a bounded number of them, not parse them until its
 * deadline (1.4-3.1 s of CPU in 5 s before the guard).
 */

const { servers, sockets } = closedAfterEach();

/** What the flood server writes at most: far past the guard, far short of the old deadline. */
const FLOOD_LIMIT_BYTES = 256 * 1024 * 1024;
const READ_AT_MOST = 16 * 1024 * 1024;

const frame = (type: number, flags: number, stream: number, payload: Uint8Array): Buffer => {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(stream, 5);
  return Buffer.concat([header, payload]);
};

const END_HEADERS = 0x4;
const PADDED = 0x8;
/** `:status: 200` (HPACK's static entry 8). */
const STATUS_200 = Uint8Array.of(0x88);

/** Frames that carry no body, each as a server may send it. */
const BODILESS_FRAMES: ReadonlyArray<readonly [string, Buffer]> = [
  ['padded DATA frames with no data', frame(0, PADDED, 1, Buffer.alloc(256).fill(255, 0, 1))],
  ['WINDOW_UPDATE frames', frame(8, 0, 0, Uint8Array.of(0, 0, 0, 1))],
  ['PRIORITY frames for an idle stream', frame(2, 0, 5, Uint8Array.of(0, 0, 0, 3, 0))],
  ['frames of an unknown type', frame(0x20, 0, 0, Buffer.alloc(64))],
];

/**
 * A raw HTTP/2 server: its SETTINGS, then a 200's HEADERS for the client's stream 1, then `flood`
 * repeated as fast as the client reads, until the client closes or FLOOD_LIMIT_BYTES are written.
 */
async function floodServer(flood: Buffer): Promise<{ endpoint: string; written: () => number }> {
  let written = 0;
  const server = createServer((socket: Socket) => {
    sockets.add(socket);
    let started = false;
    socket.on('error', () => undefined);
    socket.on('data', async () => {
      if (started) return;
      started = true;
      socket.write(frame(4, 0, 0, new Uint8Array(0)));
      socket.write(frame(4, 1, 0, new Uint8Array(0)));
      socket.write(frame(1, END_HEADERS, 1, STATUS_200));
      const batch = Buffer.concat(Array(256).fill(flood));
      while (written < FLOOD_LIMIT_BYTES && !socket.destroyed) {
        written += batch.length;
        if (!socket.write(batch)) await drainedOrClosed(socket);
      }
      socket.end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, written: () => written };
}

function drainedOrClosed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };
const options = { timeoutMs: 20_000 };

const pollyAt = (endpoint: string) =>
  new PollyTextToSpeech({
    region: 'eu-west-1',
    voice: 'Joanna',
    engine: 'neural',
    endpoint,
    credentials,
  });

describe('Amazon Polly over HTTP/2, a server sending frames without a body', () => {
  it.each(BODILESS_FRAMES)('%s: a malformed reply, read no further', async (_name, flood) => {
    // Prepare
    const server = await floodServer(flood);

    // Act
    const error = await speechFailureOf(pollyAt(server.endpoint).synthesize('hello', options));

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(error.message).toContain('HTTP/2 connection');
    expect(server.written()).toBeLessThan(READ_AT_MOST);
  });

  it('DATA frames of 2 bytes each, 9 of framing a frame: a malformed reply, read no further', async () => {
    // Prepare
    const server = await floodServer(frame(0, 0, 1, Uint8Array.of(0, 0)));

    // Act
    const speech = pollyAt(server.endpoint).synthesize('hello', options);
    const error = await speechFailureOf(speech.then((spoken) => collect(spoken.chunks)));

    // Assess
    expect(error.failure).toBe('malformed_reply');
    expect(server.written()).toBeLessThan(READ_AT_MOST);
  });

  it('still takes speech from a server that pads every frame as much as it may', async () => {
    // Prepare: padding is allowed; Node's server pads each HEADERS and DATA frame to its most.
    const audio = tonePcm(0.5, 16_000);
    const server = createHttp2Server(
      { paddingStrategy: constants.PADDING_STRATEGY_MAX },
      async (request, response) => {
        for await (const _ of request);
        response.writeHead(200, { 'content-type': 'audio/pcm' });
        for (let at = 0; at < audio.length; at += 100) response.write(audio.subarray(at, at + 100));
        response.end();
      },
    );
    const { endpoint, close } = await listenOnLoopback(server);

    // Act
    const speech = await pollyAt(endpoint).synthesize('hello', options);
    const { bytes } = await collect(speech.chunks);
    await close();

    // Assess
    expect(bytes).toEqual(audio);
  });
});

describe('Amazon Transcribe streaming over HTTP/2, a server sending frames without a body', () => {
  const format = { sampleRate: 16_000, channels: 1, sampleWidth: 2 } as const;
  const recording: Recording = {
    wav: wavFile(tonePcm(0.2, 16_000), format),
    format,
    durationSeconds: 0.2,
  };

  it.each(BODILESS_FRAMES)('%s: a malformed reply, read no further', async (_name, flood) => {
    // Prepare
    const server = await floodServer(flood);
    const stt = new TranscribeSpeechToText({
      region: 'eu-west-1',
      languageCode: 'en-US',
      maxCharacters: 2_000,
      endpoint: server.endpoint,
      credentials,
    });

    // Act
    const error = await speechFailureOf(stt.transcribe(recording, options));

    // Assess
    expect(error).toMatchObject({ failure: 'malformed_reply', direction: 'speech_to_text' });
    expect(error.message).toContain('HTTP/2 connection');
    expect(server.written()).toBeLessThan(READ_AT_MOST);
  });
});

describe('Amazon Transcribe streaming over HTTP/2, a server that answers each audio event', () => {
  it('still hears a recording of 60 s: 600 audio events, each answered with window updates', async () => {
    // Prepare
    const transcribe = await startScriptedTranscribeServer({
      region: 'eu-west-1',
      service: 'transcribe',
      credentials: TEST_AWS_CREDENTIALS,
    });
    transcribe.enqueue({ kind: 'results', events: [[{ text: 'A minute.', partial: false }]] });
    const format = { sampleRate: 16_000, channels: 1, sampleWidth: 2 } as const;
    const stt = new TranscribeSpeechToText({
      region: 'eu-west-1',
      languageCode: 'en-US',
      maxCharacters: 2_000,
      endpoint: transcribe.endpoint,
      credentials: TEST_AWS_CREDENTIALS,
      timing: new FakeTiming({ longestInstantSleepMs: TRANSCRIBE_CHUNK_MS }),
    });
    const recording: Recording = {
      wav: wavFile(tonePcm(60, 16_000), format),
      format,
      durationSeconds: 60,
    };

    // Act
    const transcript = await stt.transcribe(recording, options).finally(() => transcribe.close());

    // Assess
    expect(transcript).toEqual({ text: 'A minute.' });
  });
});
