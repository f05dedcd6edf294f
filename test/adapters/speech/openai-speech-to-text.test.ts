import { describe, expect, it } from 'vitest';
import { OpenAiSpeechToText } from '../../../shared/adapters/speech/openai-speech-to-text';
import type { Recording } from '../../../shared/ports/speech';
import { FakeTiming } from '../../support/fake-timing';
import { freePort } from '../../support/free-port';
import { releasable, tonePcm, wavFile } from '../../support/speech-audio';
import { speechFailureOf } from '../../support/speech-failure';
import { useScriptedAudioServer } from '../../support/use-scripted-audio-server';

const audio = useScriptedAudioServer();
const KEY = 'sk-stt-secret';
const format = { sampleRate: 16_000, channels: 1, sampleWidth: 2 };
const recording: Recording = {
  wav: wavFile(tonePcm(0.5, 16_000), format),
  format,
  durationSeconds: 0.5,
};
const options = { timeoutMs: 10_000 };

const adapter = (overrides: { baseURL?: string; timing?: FakeTiming } = {}) =>
  new OpenAiSpeechToText({
    baseURL: overrides.baseURL ?? audio.baseURL,
    apiKey: KEY,
    model: 'whisper-1',
    maxCharacters: 2_000,
    ...(overrides.timing === undefined ? {} : { timing: overrides.timing }),
  });

describe('OpenAiSpeechToText', () => {
  it('uploads the WAV as a file through the SDK and gives the transcript back trimmed', async () => {
    // Prepare
    audio.enqueueTranscription({ text: ' Turn on the kitchen lights. ' });

    // Act
    const transcript = await adapter().transcribe(recording, options);

    // Assess
    expect(transcript).toEqual({ text: 'Turn on the kitchen lights.' });
    const [request] = audio.requests;
    expect(request?.path).toBe('/v1/audio/transcriptions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.transcription).toMatchObject({
      model: 'whisper-1',
      filename: 'recording.wav',
      fileType: 'audio/wav',
      fields: { model: 'whisper-1', response_format: 'json' },
    });
    expect(request?.transcription?.file).toEqual(recording.wav);
  });

  it.each([
    [401, 'rejected'],
    [400, 'rejected'],
    [429, 'unavailable'],
    [500, 'unavailable'],
    [503, 'unavailable'],
  ])('maps HTTP %i to %s, the key scrubbed from the message', async (status, failure) => {
    // Prepare
    const body = { error: { message: `Incorrect API key provided: ${KEY}` } };
    audio.enqueueTranscription({ status, body });

    // Act
    const error = await speechFailureOf(adapter().transcribe(recording, options));

    // Assess
    expect(error).toMatchObject({ failure, direction: 'speech_to_text' });
    expect(error.message).not.toContain(KEY);
    expect(audio.requests).toHaveLength(1);
  });

  it('calls a reply without text malformed', async () => {
    audio.enqueueTranscription({ rawBody: '{"transcript": "no text field"}' });

    const error = await speechFailureOf(adapter().transcribe(recording, options));

    expect(error.failure).toBe('malformed_reply');
  });

  it('gives up with a timeout when its deadline fires, however long the server takes', async () => {
    // Prepare
    const timing = new FakeTiming({ instantSleeps: false });
    const arrived = releasable();
    audio.enqueueTranscription(() => {
      arrived.release();
      return { text: 'too late', hold: new Promise(() => undefined) };
    });

    // Act
    const pending = speechFailureOf(
      adapter({ timing }).transcribe(recording, { timeoutMs: 3_000 }),
    );
    await arrived.promise;
    expect(timing.pendingDelays).toEqual([3_000]);
    timing.advance(3_000);

    // Assess
    expect((await pending).failure).toBe('timeout');
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const arrived = releasable();
    const timing = new FakeTiming({ instantSleeps: false });
    audio.enqueueTranscription(() => {
      arrived.release();
      return { text: 'never', hold: new Promise(() => undefined) };
    });

    const pending = speechFailureOf(
      adapter({ timing }).transcribe(recording, { timeoutMs: 60_000, signal: controller.signal }),
    );
    await arrived.promise;
    controller.abort();

    expect((await pending).failure).toBe('timeout');
    expect(timing.pendingDelays).toEqual([]);
  });

  it('calls a server that is not there unavailable', async () => {
    // Prepare: a port that was just free.
    const port = await freePort();

    // Act
    const error = await speechFailureOf(
      adapter({ baseURL: `http://127.0.0.1:${port}/v1` }).transcribe(recording, options),
    );

    // Assess
    expect(error.failure).toBe('unavailable');
  });
});
