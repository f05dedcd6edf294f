import { describe, expect, it } from 'vitest';
import { PollyTextToSpeech } from '../../../shared/adapters/speech/polly-text-to-speech';
import { FakeSpeechTimers } from '../../support/fake-speech-timers';
import { startScriptedPollyServer } from '../../support/scripted-polly-server';
import { readFirstChunk, releasable, tonePcm } from '../../support/speech-audio';
import { speechFailureOf } from '../../support/speech-failure';
import { useLoopbackServer } from '../../support/use-loopback-server';

const polly = useLoopbackServer('the scripted Polly', startScriptedPollyServer);

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

describe('PollyTextToSpeech', () => {
  it('asks SynthesizeSpeech for 16 kHz PCM and hands on the first chunk before the rest', async () => {
    // Prepare
    const pcm = tonePcm(0.2, 16_000);
    const rest = releasable();
    polly.enqueue({ audio: pcm, chunks: 4, holdAfterFirstChunk: rest.promise });

    // Act
    const speech = await adapter().synthesize('Good morning.', options);
    const { first, rest: remainder } = await readFirstChunk(speech.chunks);
    rest.release();
    const remaining = await remainder();

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

    const error = await speechFailureOf(adapter().synthesize('Hello.', options));

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
    const reading = await readFirstChunk(speech.chunks);
    rest.release();
    const error = await speechFailureOf(reading.rest());

    expect(error.failure).toBe('unavailable');
  });

  it('fails with a timeout when its deadline fires while the audio stalls', async () => {
    const timers = new FakeSpeechTimers();
    polly.enqueue({
      audio: tonePcm(0.2, 16_000),
      holdAfterFirstChunk: new Promise(() => undefined),
    });

    const speech = await adapter(timers).synthesize('Hello.', { timeoutMs: 2_500 });
    const reading = await readFirstChunk(speech.chunks);
    expect(timers.pendingDelays).toEqual([2_500]);
    timers.fireAll();
    const error = await speechFailureOf(reading.next());

    expect(error.failure).toBe('timeout');
  });
});
