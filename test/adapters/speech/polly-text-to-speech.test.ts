import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PollyTextToSpeech } from '../../../shared/adapters/speech/polly-text-to-speech';
import { SpeechProviderError } from '../../../shared/ports/speech';
import { FakeSpeechTimers } from '../../support/fake-speech-timers';
import {
  type ScriptedPollyServer,
  startScriptedPollyServer,
} from '../../support/scripted-polly-server';
import { collect, releasable, tonePcm } from '../../support/speech-audio';

let polly: ScriptedPollyServer;
beforeAll(async () => {
  polly = await startScriptedPollyServer();
});
afterAll(() => polly.close());
beforeEach(() => {
  (polly.requests as unknown[]).length = 0;
});

const options = { timeoutMs: 10_000 };
const adapter = (timers?: FakeSpeechTimers) =>
  new PollyTextToSpeech({
    region: 'eu-west-1',
    voice: 'Joanna',
    engine: 'neural',
    endpoint: polly.endpoint,
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
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

describe('PollyTextToSpeech', () => {
  it('asks SynthesizeSpeech for 16 kHz PCM and hands on the first chunk before the rest', async () => {
    // Prepare
    const pcm = tonePcm(0.2, 16_000);
    const rest = releasable();
    polly.enqueue({ audio: pcm, chunks: 4, holdAfterFirstChunk: rest.promise });

    // Act
    const speech = await adapter().synthesize('Good morning.', options);
    const iterator = speech.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    rest.release();
    const remaining = await collect({ [Symbol.asyncIterator]: () => iterator });

    // Assess
    expect(speech.format).toEqual({ sampleRate: 16_000, channels: 1, sampleWidth: 2 });
    expect(first.value?.length).toBeLessThan(pcm.length);
    expect(Buffer.concat([first.value as Uint8Array, remaining.bytes])).toEqual(Buffer.from(pcm));
    expect(polly.requests[0]).toMatchObject({
      path: '/v1/speech',
      authorization: expect.stringContaining('AWS4-HMAC-SHA256 Credential=AKIDTEST/'),
      body: {
        Engine: 'neural',
        OutputFormat: 'pcm',
        SampleRate: '16000',
        Text: 'Good morning.',
        TextType: 'text',
        VoiceId: 'Joanna',
      },
    });
  });

  it.each([
    [400, 'EngineNotSupportedException', 'rejected'],
    [400, 'TextLengthExceededException', 'rejected'],
    [400, 'ThrottlingException', 'unavailable'],
    [500, 'ServiceFailureException', 'unavailable'],
  ])('maps HTTP %i %s to %s', async (status, errorType, failure) => {
    polly.enqueue({ status, errorType, message: 'scripted' });

    const error = await rejection(adapter().synthesize('Hello.', options));

    expect(error).toMatchObject({ failure, direction: 'text_to_speech' });
    expect(error.message).toContain(errorType);
  });

  it('fails the stream as unavailable when the connection drops mid-way', async () => {
    const rest = releasable();
    polly.enqueue({
      audio: tonePcm(0.2, 16_000),
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

  it('fails with a timeout when its deadline fires while the audio stalls', async () => {
    const timers = new FakeSpeechTimers();
    polly.enqueue({
      audio: tonePcm(0.2, 16_000),
      holdAfterFirstChunk: new Promise(() => undefined),
    });

    const speech = await adapter(timers).synthesize('Hello.', { timeoutMs: 2_500 });
    const iterator = speech.chunks[Symbol.asyncIterator]();
    await iterator.next();
    expect(timers.pendingDelays).toEqual([2_500]);
    timers.fireAll();
    const error = await rejection(iterator.next());

    expect(error.failure).toBe('timeout');
  });
});
