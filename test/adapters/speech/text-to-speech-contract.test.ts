import { describe, expect, it } from 'vitest';
import { OpenAiTextToSpeech } from '../../../shared/adapters/speech/openai-text-to-speech';
import { PollyTextToSpeech } from '../../../shared/adapters/speech/polly-text-to-speech';
import {
  MAX_SPOKEN_SECONDS,
  type PcmFormat,
  SpeechFailure,
  type TextToSpeech,
} from '../../../shared/ports/speech';
import { FakeTiming } from '../../support/fake-timing';
import type { AudioStep } from '../../support/scripted-audio/audio-script';
import { startScriptedPollyServer } from '../../support/scripted-polly-server';
import { collect, readFirstChunk, releasable, tonePcm } from '../../support/speech-audio';
import { speechFailureOf } from '../../support/speech-failure';
import { useLoopbackServer } from '../../support/use-loopback-server';
import { useScriptedAudioServer } from '../../support/use-scripted-audio-server';

/**
 * What every text-to-speech provider must do, run against each provider's scripted loopback
 * server: hand the audio on as it arrives in the format it declares, cap it at the spoken limit,
 * map the provider's errors (no secret in the message), fail a dropped or stalled stream, and
 * keep no deadline once the listener stops. A new provider is one more entry in PROVIDERS; what
 * only one provider does (its request, WAV headers) stays in its own test file.
 */

/** One of the provider's errors as its API sends it, and what the adapter must make of it. */
interface ProviderError {
  readonly answer: string;
  readonly failure: SpeechFailure;
  /** What of the provider's answer the error message carries. */
  readonly says: string;
  /** Queues this error as the answer to the next request. */
  enqueue(): void;
}

/** A provider's adapter and its loopback server, for the tests of one describe block. */
interface ProviderUnderTest {
  /** Queues the answer to the next request; a function is called when the request arrives. */
  enqueue(step: AudioStep | (() => AudioStep)): void;
  adapter(timing?: FakeTiming): TextToSpeech;
  readonly errors: readonly ProviderError[];
}

interface SpeechOutProvider {
  readonly name: string;
  /** The PCM the provider sends, as the adapter is set up here. */
  readonly format: PcmFormat;
  /** The credential the adapter holds: never in an error message. */
  readonly secret: string;
  /** Starts the provider's scripted server around the tests of the calling describe block. */
  use(): ProviderUnderTest;
}

const OPENAI_KEY = 'sk-tts-secret';
const POLLY_SECRET = 'test-secret';

const openAi: SpeechOutProvider = {
  name: 'OpenAI-compatible audio/speech',
  format: { sampleRate: 24_000, channels: 1, sampleWidth: 2 },
  secret: OPENAI_KEY,
  use: () => {
    const audio = useScriptedAudioServer();
    const error = (status: number, failure: SpeechFailure): ProviderError => ({
      answer: `HTTP ${status}`,
      failure,
      says: 'bad key',
      // Some servers echo the key they were sent: the adapter scrubs it.
      enqueue: () =>
        audio.enqueueSpeech({ status, body: { error: { message: `bad key ${OPENAI_KEY}` } } }),
    });
    return {
      enqueue: (step) => audio.enqueueSpeech(step),
      adapter: (timing) =>
        new OpenAiTextToSpeech({
          baseURL: audio.baseURL,
          apiKey: OPENAI_KEY,
          model: 'tts-1',
          voice: 'alloy',
          format: { kind: 'pcm', sampleRate: 24_000 },
          ...(timing === undefined ? {} : { timing }),
        }),
      errors: [
        error(400, SpeechFailure.rejected),
        error(401, SpeechFailure.rejected),
        error(429, SpeechFailure.unavailable),
        error(500, SpeechFailure.unavailable),
      ],
    };
  },
};

const polly: SpeechOutProvider = {
  name: 'Amazon Polly SynthesizeSpeech',
  format: { sampleRate: 16_000, channels: 1, sampleWidth: 2 },
  secret: POLLY_SECRET,
  use: () => {
    const server = useLoopbackServer('the scripted Polly', startScriptedPollyServer);
    const error = (status: number, errorType: string, failure: SpeechFailure): ProviderError => ({
      answer: `HTTP ${status} ${errorType}`,
      failure,
      says: errorType,
      enqueue: () => server.enqueue({ status, errorType, message: 'scripted' }),
    });
    return {
      enqueue: (step) => server.enqueue(step),
      adapter: (timing) =>
        new PollyTextToSpeech({
          region: 'eu-west-1',
          voice: 'Joanna',
          engine: 'neural',
          endpoint: server.endpoint,
          credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: POLLY_SECRET },
          ...(timing === undefined ? {} : { timing }),
        }),
      errors: [
        error(400, 'EngineNotSupportedException', SpeechFailure.rejected),
        error(400, 'TextLengthExceededException', SpeechFailure.rejected),
        error(400, 'ThrottlingException', SpeechFailure.unavailable),
        error(500, 'ServiceFailureException', SpeechFailure.unavailable),
      ],
    };
  },
};

const PROVIDERS: readonly SpeechOutProvider[] = [openAi, polly];
const options = { timeoutMs: 10_000 };

describe.each(PROVIDERS)('text to speech through $name', ({ format, secret, use }) => {
  const provider = use();
  const pcm = (seconds: number) => tonePcm(seconds, format.sampleRate);

  it('hands on the first chunk, in its format, before the server has sent the rest', async () => {
    // Prepare
    const sent = pcm(0.2);
    const rest = releasable();
    provider.enqueue({ audio: sent, chunks: 4, holdAfterFirstChunk: rest.promise });

    // Act
    const speech = await provider.adapter().synthesize('It is sunny tomorrow.', options);
    const { first, rest: remainder } = await readFirstChunk(speech.chunks);
    rest.release();
    const remaining = await remainder();

    // Assess
    expect(speech.format).toEqual(format);
    expect(first.value?.length).toBeGreaterThan(0);
    expect(first.value?.length).toBeLessThan(sent.length);
    expect(Buffer.concat([first.value as Uint8Array, remaining.bytes])).toEqual(Buffer.from(sent));
  });

  it('reads audio that floods up to the spoken limit and no further', async () => {
    // Prepare: 200 s of audio, past MAX_SPOKEN_SECONDS.
    const bytesPerSecond = format.sampleRate * format.channels * format.sampleWidth;
    provider.enqueue({ audio: new Uint8Array(200 * bytesPerSecond).fill(1), chunks: 100 });

    // Act
    const speech = await provider.adapter().synthesize('digits', { timeoutMs: 20_000 });
    const { bytes } = await collect(speech.chunks);

    // Assess
    expect(bytes.length).toBe(MAX_SPOKEN_SECONDS * bytesPerSecond);
  });

  it('calls a reply with no audio at all malformed', async () => {
    // Prepare
    provider.enqueue({ audio: new Uint8Array(0), chunks: 1 });

    // Act
    const error = await speechFailureOf(
      provider
        .adapter()
        .synthesize('Hello.', options)
        .then((speech) => collect(speech.chunks)),
    );

    // Assess
    expect(error).toMatchObject({ failure: 'malformed_reply', direction: 'text_to_speech' });
  });

  it.each(provider.errors)(
    'maps $answer before any audio to $failure, the secret kept out',
    async ({ enqueue, failure, says }) => {
      // Prepare
      enqueue();

      // Act
      const error = await speechFailureOf(provider.adapter().synthesize('Hello.', options));

      // Assess
      expect(error).toMatchObject({ failure, direction: 'text_to_speech' });
      expect(error.message).toContain(says);
      expect(error.message).not.toContain(secret);
    },
  );

  it('fails the stream as unavailable when the connection drops mid-way', async () => {
    // Prepare
    const rest = releasable();
    provider.enqueue({
      audio: pcm(0.2),
      chunks: 4,
      holdAfterFirstChunk: rest.promise,
      dropAfterChunks: 2,
    });

    // Act
    const speech = await provider.adapter().synthesize('Hello.', options);
    const reading = await readFirstChunk(speech.chunks);
    rest.release();
    const error = await speechFailureOf(reading.rest());

    // Assess
    expect(error.failure).toBe('unavailable');
  });

  it('fails the stream with a timeout when the deadline fires while the body stalls', async () => {
    // Prepare
    const timing = new FakeTiming({ instantSleeps: false });
    provider.enqueue({ audio: pcm(0.2), holdAfterFirstChunk: new Promise(() => undefined) });

    // Act
    const speech = await provider.adapter(timing).synthesize('Hello.', { timeoutMs: 4_000 });
    const reading = await readFirstChunk(speech.chunks);
    expect(timing.pendingDelays).toEqual([4_000]);
    timing.advance(4_000);
    const error = await speechFailureOf(reading.next());

    // Assess
    expect(error.failure).toBe('timeout');
  });

  it('times out before the first byte when the server holds its answer', async () => {
    // Prepare
    const timing = new FakeTiming({ instantSleeps: false });
    const arrived = releasable();
    provider.enqueue(() => {
      arrived.release();
      return { audio: pcm(0.1), holdBeforeHeaders: new Promise(() => undefined) };
    });

    // Act
    const pending = speechFailureOf(provider.adapter(timing).synthesize('Hello.', options));
    await arrived.promise;
    timing.advance(options.timeoutMs);

    // Assess
    expect((await pending).failure).toBe('timeout');
  });

  it('clears its deadline when the listener stops early', async () => {
    // Prepare
    const timing = new FakeTiming({ instantSleeps: false });
    provider.enqueue({ audio: pcm(0.2), chunks: 4 });

    // Act
    const speech = await provider.adapter(timing).synthesize('Hello.', options);
    for await (const _chunk of speech.chunks) break;

    // Assess
    expect(timing.pendingDelays).toEqual([]);
  });
});
