import { describe, expect, it } from 'vitest';
import type { OpenAiSpeechFormat } from '../../../shared/adapters/config/speech-config';
import { OpenAiTextToSpeech } from '../../../shared/adapters/speech/openai-text-to-speech';
import { SpeechProviderError, type SynthesizedSpeech } from '../../../shared/ports/speech';
import { FakeSpeechTimers } from '../../support/fake-speech-timers';
import { collect, releasable, tonePcm, wavFile } from '../../support/speech-audio';
import { useScriptedAudioServer } from '../../support/use-scripted-audio-server';

const audio = useScriptedAudioServer();
const KEY = 'sk-tts-secret';
const PCM_24K: OpenAiSpeechFormat = { kind: 'pcm', sampleRate: 24_000 };
const options = { timeoutMs: 10_000 };

const adapter = (format: OpenAiSpeechFormat = PCM_24K, timers?: FakeSpeechTimers) =>
  new OpenAiTextToSpeech({
    baseURL: audio.baseURL,
    apiKey: KEY,
    model: 'tts-1',
    voice: 'alloy',
    format,
    ...(timers === undefined ? {} : { timers }),
  });

const rejection = async (promise: Promise<unknown>): Promise<SpeechProviderError> => {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SpeechProviderError))
    throw new Error(`not a SpeechProviderError: ${error}`);
  return error;
};

describe('OpenAiTextToSpeech', () => {
  it('hands on the first chunk before the server has sent the rest', async () => {
    // Prepare
    const pcm = tonePcm(0.2, 24_000);
    const rest = releasable();
    audio.enqueueSpeech({ audio: pcm, chunks: 4, holdAfterFirstChunk: rest.promise });

    // Act
    const speech = await adapter().synthesize('It is sunny tomorrow.', options);
    const iterator = speech.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    rest.release();
    const remaining = await collect({ [Symbol.asyncIterator]: () => iterator });

    // Assess
    expect(speech.format).toEqual({ sampleRate: 24_000, channels: 1, sampleWidth: 2 });
    expect(first.value?.length).toBeGreaterThan(0);
    expect(first.value?.length).toBeLessThan(pcm.length);
    expect(Buffer.concat([first.value as Uint8Array, remaining.bytes])).toEqual(Buffer.from(pcm));
    expect(audio.requests[0]?.speech).toEqual({
      model: 'tts-1',
      voice: 'alloy',
      input: 'It is sunny tomorrow.',
      response_format: 'pcm',
    });
    expect(audio.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it.each([
    ['wav was asked for', { kind: 'wav' } as const],
    ['pcm was asked for and the server sent wav anyway', PCM_24K],
  ])('reads the format from a WAV header split over chunks: %s', async (_case, format) => {
    // Prepare
    const pcm = tonePcm(0.1, 22_050);
    const wavFormat = { sampleRate: 22_050, channels: 1, sampleWidth: 2 };
    audio.enqueueSpeech({ audio: wavFile(pcm, wavFormat), chunks: 200 });

    // Act
    const speech = await adapter(format).synthesize('Hello.', options);
    const { bytes } = await collect(speech.chunks);

    // Assess
    expect(speech.format).toEqual(wavFormat);
    expect(Buffer.from(bytes)).toEqual(Buffer.from(pcm));
    expect(audio.requests[0]?.speech?.response_format).toBe(format.kind);
  });

  it.each([
    ['WAV asked for, raw bytes sent', { kind: 'wav' } as const, tonePcm(0.1, 16_000)],
    ['no audio at all', PCM_24K, new Uint8Array(0)],
  ])('calls the reply malformed: %s', async (_case, format, body) => {
    audio.enqueueSpeech({ audio: body, chunks: 1 });

    const error = await rejection(
      adapter(format)
        .synthesize('Hello.', options)
        .then((speech: SynthesizedSpeech) => collect(speech.chunks)),
    );

    expect(error).toMatchObject({ failure: 'malformed_reply', direction: 'text_to_speech' });
  });

  it.each([
    [400, 'rejected'],
    [401, 'rejected'],
    [429, 'unavailable'],
    [500, 'unavailable'],
  ])('maps HTTP %i before any audio to %s, the key scrubbed', async (status, failure) => {
    audio.enqueueSpeech({ status, body: { error: { message: `bad key ${KEY}` } } });

    const error = await rejection(adapter().synthesize('Hello.', options));

    expect(error).toMatchObject({ failure, direction: 'text_to_speech' });
    expect(error.message).not.toContain(KEY);
  });

  it('fails the stream as unavailable when the connection drops mid-way', async () => {
    const rest = releasable();
    audio.enqueueSpeech({
      audio: tonePcm(0.2, 24_000),
      chunks: 4,
      holdAfterFirstChunk: rest.promise,
      dropAfterChunks: 2,
    });

    const speech = await adapter().synthesize('Hello.', options);
    const iterator = speech.chunks[Symbol.asyncIterator]();
    await iterator.next();
    rest.release();
    const error = await rejection(collect({ [Symbol.asyncIterator]: () => iterator }));

    expect(error.failure).toBe('unavailable');
  });

  it('fails the stream with a timeout when the deadline fires while the body stalls', async () => {
    // Prepare
    const timers = new FakeSpeechTimers();
    audio.enqueueSpeech({
      audio: tonePcm(0.2, 24_000),
      holdAfterFirstChunk: new Promise(() => undefined),
    });

    // Act
    const speech = await adapter(PCM_24K, timers).synthesize('Hello.', { timeoutMs: 4_000 });
    const iterator = speech.chunks[Symbol.asyncIterator]();
    await iterator.next();
    expect(timers.pendingDelays).toEqual([4_000]);
    timers.fireAll();
    const error = await rejection(iterator.next());

    // Assess
    expect(error.failure).toBe('timeout');
  });

  it('times out before the first byte when the server holds its answer', async () => {
    const timers = new FakeSpeechTimers();
    const arrived = releasable();
    audio.enqueueSpeech(() => {
      arrived.release();
      return { audio: tonePcm(0.1, 24_000), holdBeforeHeaders: new Promise(() => undefined) };
    });

    const pending = rejection(adapter(PCM_24K, timers).synthesize('Hello.', options));
    await arrived.promise;
    timers.fireAll();

    expect((await pending).failure).toBe('timeout');
  });

  it('clears its deadline when the listener stops early', async () => {
    const timers = new FakeSpeechTimers();
    audio.enqueueSpeech({ audio: tonePcm(0.2, 24_000), chunks: 4 });

    const speech = await adapter(PCM_24K, timers).synthesize('Hello.', options);
    for await (const _chunk of speech.chunks) break;

    expect(timers.pendingDelays).toEqual([]);
  });
});
