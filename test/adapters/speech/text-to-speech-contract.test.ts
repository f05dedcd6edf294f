import { describe, expect, it, vi } from 'vitest';
import { EmbeddedFliteTextToSpeech } from '../../../shared/adapters/speech/embedded-flite-text-to-speech';
import { OpenAiTextToSpeech } from '../../../shared/adapters/speech/openai-text-to-speech';
import { PollyTextToSpeech } from '../../../shared/adapters/speech/polly-text-to-speech';
import {
  MAX_SPOKEN_SECONDS,
  type PcmFormat,
  SPOKEN_CUT_MARKER,
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
 * What every text-to-speech provider must do, run against each provider: hand the audio on as it
 * arrives in the format it declares, stop at the spoken limit, fail a stream its deadline ends,
 * keep no deadline once the listener stops (every provider, the embedded synthesizer included);
 * and for a provider behind an API, run against its scripted loopback server: hand on the first
 * chunk before the rest is sent, map the provider's errors (no secret in the message), fail an
 * empty, dropped or held answer. A new provider is one more entry in PROVIDERS; what only one
 * provider does (its request, WAV headers, its threads) stays in its own test file.
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

/** A provider's adapter, and what a row arranges before it asks for speech (the text to speak). */
interface ProviderUnderTest {
  adapter(timing?: FakeTiming): TextToSpeech;
  /** An answer longer than MAX_SPOKEN_SECONDS. */
  pastTheSpokenLimit(): string;
  /** An answer that goes on after its first chunk until its deadline ends it. */
  stillSpeakingAfterItsFirstChunk(): string;
  /** An answer of several chunks. */
  severalChunks(): string;
}

/** The scripted server behind a provider's API, for the rows about that API. */
interface ServerUnderTest extends ProviderUnderTest {
  /** Queues the answer to the next request; a function is called when the request arrives. */
  enqueue(step: AudioStep | (() => AudioStep)): void;
  readonly errors: readonly ProviderError[];
}

interface SpeechOutProvider<Under extends ProviderUnderTest = ProviderUnderTest> {
  readonly name: string;
  /** The PCM the provider sends, as the adapter is set up here. */
  readonly format: PcmFormat;
  /**
   * How speech past MAX_SPOKEN_SECONDS ends: a provider's body is not read further (exactly the
   * limit); the embedded synthesizer stops at the last piece that fits and says SPOKEN_CUT_MARKER.
   */
  readonly cut: 'at the limit' | 'at a piece, then the marker';
  /** Sets up the provider around the tests of the calling describe block. */
  use(): Under;
}

interface ApiProvider extends SpeechOutProvider<ServerUnderTest> {
  /** The credential the adapter holds: never in an error message. */
  readonly secret: string;
}

const OPENAI_KEY = 'sk-tts-secret';
const POLLY_SECRET = 'test-secret';

const openAi: ApiProvider = {
  name: 'OpenAI-compatible audio/speech',
  format: { sampleRate: 24_000, channels: 1, sampleWidth: 2 },
  cut: 'at the limit',
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
      ...scriptedAnswers((step) => audio.enqueueSpeech(step), 24_000),
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

const polly: ApiProvider = {
  name: 'Amazon Polly SynthesizeSpeech',
  format: { sampleRate: 16_000, channels: 1, sampleWidth: 2 },
  cut: 'at the limit',
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
      ...scriptedAnswers((step) => server.enqueue(step), 16_000),
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

/** The answers of the rows every provider runs, as a scripted server sends them. */
function scriptedAnswers(
  enqueue: (step: AudioStep) => void,
  sampleRate: number,
): Omit<ProviderUnderTest, 'adapter'> {
  return {
    pastTheSpokenLimit: () => {
      // 200 s of audio, in 100 writes.
      enqueue({ audio: new Uint8Array(200 * sampleRate * 2).fill(1), chunks: 100 });
      return 'digits';
    },
    stillSpeakingAfterItsFirstChunk: () => {
      enqueue({
        audio: tonePcm(0.2, sampleRate),
        holdAfterFirstChunk: new Promise(() => undefined),
      });
      return 'Hello.';
    },
    severalChunks: () => {
      enqueue({ audio: tonePcm(0.2, sampleRate), chunks: 4 });
      return 'Hello.';
    },
  };
}

/** About 70 s of speech from the embedded synthesizer: 60 sentences of about 1.2 s each. */
const LONG_PROSE = Array.from(
  { length: 60 },
  (_, index) => `Sentence ${index + 1}: the kitchen lights are on.`,
).join(' ');

/**
 * CMU Flite in this process, on its own threads. It runs the rows above that ask nothing of an
 * API; the rows about one are left out, each for its reason:
 * - the first chunk before the server has sent the rest: no server holds its audio between two
 *   chunks (its pieces are made as fast as its thread can); that it hands on the first piece
 *   before the rest is made is shown by a reader leaving after the first chunk stopping its
 *   thread (embedded-flite-text-to-speech.test.ts);
 * - a reply with no audio: there is no reply; a text with nothing to speak is refused before any
 *   work (`rejected`);
 * - the provider's errors, the secret kept out: no API answers it and it holds no secret;
 * - a connection dropped mid-way: there is no connection (a thread that fails is `unavailable`,
 *   tested with its threads);
 * - a timeout before the first byte while the server holds its answer: nothing holds its first
 *   piece, so a deadline can only be fired while it is made, which races the thread; a deadline
 *   that passes while it speaks is the row after the first chunk.
 */
const flite: SpeechOutProvider = {
  name: 'the embedded Flite synthesizer',
  format: { sampleRate: 16_000, channels: 1, sampleWidth: 2 },
  cut: 'at a piece, then the marker',
  use: () => ({
    adapter: (timing) =>
      new EmbeddedFliteTextToSpeech({ voice: 'slt', ...(timing === undefined ? {} : { timing }) }),
    pastTheSpokenLimit: () => LONG_PROSE,
    // 3,000 digits: pieces of 120 digits, each about 30 s of speech and a second of work.
    stillSpeakingAfterItsFirstChunk: () => '7'.repeat(3_000),
    severalChunks: () => 'Hello there. Goodbye.',
  }),
};

const API_PROVIDERS: readonly ApiProvider[] = [openAi, polly];
const PROVIDERS: readonly SpeechOutProvider[] = [...API_PROVIDERS, flite];
const options = { timeoutMs: 10_000 };

describe.each(PROVIDERS)('text to speech through $name', ({ format, cut, use }) => {
  const provider = use();
  const bytesPerSecond = format.sampleRate * format.channels * format.sampleWidth;

  it('speaks no further than the spoken limit', async () => {
    // Prepare
    const text = provider.pastTheSpokenLimit();
    const limitBytes = MAX_SPOKEN_SECONDS * bytesPerSecond;

    // Act
    const speech = await provider.adapter().synthesize(text, { timeoutMs: 60_000 });
    const { bytes } = await collect(speech.chunks);

    // Assess
    expect(speech.format).toEqual(format);
    if (cut === 'at the limit') {
      expect(bytes.length).toBe(limitBytes);
    } else {
      // The last piece that fits, then the marker said on its own.
      const marker = await provider.adapter().synthesize(SPOKEN_CUT_MARKER, options);
      const said = (await collect(marker.chunks)).bytes;
      expect(bytes.length - said.length).toBeLessThanOrEqual(limitBytes);
      expect(bytes.length - said.length).toBeGreaterThan(limitBytes - 10 * bytesPerSecond);
      expect(Buffer.from(bytes.subarray(bytes.length - said.length))).toEqual(Buffer.from(said));
    }
  });

  it('fails the stream with a timeout when the deadline fires after its first chunk', async () => {
    // Prepare
    const timing = new FakeTiming({ instantSleeps: false });
    const text = provider.stillSpeakingAfterItsFirstChunk();

    // Act
    const speech = await provider.adapter(timing).synthesize(text, { timeoutMs: 4_000 });
    const reading = await readFirstChunk(speech.chunks);
    expect(timing.pendingDelays).toEqual([4_000]);
    timing.advance(4_000);
    const error = await speechFailureOf(reading.rest());

    // Assess
    expect(error.failure).toBe('timeout');
  });

  it('clears its deadline when the listener stops early', async () => {
    // Prepare
    const timing = new FakeTiming({ instantSleeps: false });
    const text = provider.severalChunks();

    // Act
    const speech = await provider.adapter(timing).synthesize(text, options);
    for await (const _chunk of speech.chunks) break;

    // Assess
    await vi.waitFor(() => expect(timing.pendingDelays).toEqual([]));
  });
});

describe.each(API_PROVIDERS)('text to speech through $name, its API', ({ format, secret, use }) => {
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
});
