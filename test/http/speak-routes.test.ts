import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { SPEECH_LIMITS } from '../../functions/http/contract/speech-limits';
import type { LocalApiServer } from '../../infra/local/local-api-server';
import { readWavLayout } from '../../shared/adapters/speech/wav-format';
import { MAX_SPOKEN_SECONDS } from '../../shared/ports/speech';
import { releasable, tonePcm } from '../support/speech-audio';
import { expectError } from './response-contract';
import { postRaw, SPEECH_RATE, useSpeechApi } from './speech-api';
import { read } from './speech-exchange';

const api = useSpeechApi();
const SPEAK = routePath('media-speak');
const SPEAK_STREAM = routePath('media-speak-stream');

describe('POST /api/v0/media/tts/speak', () => {
  it('answers the speech as one WAV file of the provider’s PCM', async () => {
    // Prepare
    const pcm = tonePcm(0.3, SPEECH_RATE);
    api().audio.enqueueSpeech({ audio: pcm, chunks: 3 });

    // Act
    const response = await postRaw(
      api().speaking,
      SPEAK,
      JSON.stringify({ text: 'Hello there.' }),
      {
        'content-type': 'application/json',
      },
    );
    const bytes = new Uint8Array(await response.arrayBuffer());

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const layout = readWavLayout(bytes);
    expect(layout).toEqual({
      ok: true,
      value: {
        format: { sampleRate: SPEECH_RATE, channels: 1, sampleWidth: 2 },
        dataOffset: 44,
        dataBytes: pcm.length,
        irregular: false,
      },
    });
    expect(Buffer.from(bytes.subarray(44))).toEqual(Buffer.from(pcm));
    expect(api().audio.requests[0]?.speech).toMatchObject({ input: 'Hello there.' });
    expect(api().output.join('')).toContain('"characters_synthesized":12');
  });

  it.each([SPEAK, SPEAK_STREAM])(
    '%s: text over the limit, or none, is a 400 before the provider',
    async (path) => {
      // Act
      const long = await read(
        await postRaw(
          api().speaking,
          path,
          JSON.stringify({ text: 'a'.repeat(SPEECH_LIMITS.speakCharacters + 1) }),
          {
            'content-type': 'application/json',
          },
        ),
      );
      const none = await read(
        await postRaw(api().speaking, path, JSON.stringify({ text: '' }), {
          'content-type': 'application/json',
        }),
      );
      const blank = await read(
        await postRaw(api().speaking, path, JSON.stringify({ text: ' \n\t ' }), {
          'content-type': 'application/json',
        }),
      );

      // Assess
      const error = expectError(long, 400, 'invalid_request');
      expect(JSON.stringify(error.error.details)).toContain(String(SPEECH_LIMITS.speakCharacters));
      expectError(none, 400, 'invalid_request');
      expectError(blank, 400, 'invalid_request');
      expect(api().audio.requests).toEqual([]);
    },
  );

  it('answers speech longer than the spoken limit 413 speech_too_long, not its first minute', async () => {
    // Prepare: a provider whose speech goes a second past the limit, then one that ends on it.
    const tooLong = new Uint8Array((MAX_SPOKEN_SECONDS + 1) * SPEECH_RATE * 2).fill(1);
    const exact = new Uint8Array(MAX_SPOKEN_SECONDS * SPEECH_RATE * 2).fill(1);
    api().audio.enqueueSpeech({ audio: tooLong, chunks: 8 });
    api().audio.enqueueSpeech({ audio: exact, chunks: 8 });
    const send = () =>
      postRaw(api().speaking, SPEAK, JSON.stringify({ text: 'A long story.' }), {
        'content-type': 'application/json',
      });

    // Act
    const refused = await read(await send());
    const whole = await send();
    const wav = new Uint8Array(await whole.arrayBuffer());

    // Assess
    const error = expectError(refused, 413, 'speech_too_long');
    expect(error.error.details).toEqual([{ max_seconds: MAX_SPOKEN_SECONDS }]);
    expect(error.error.message).toContain('media/tts/speak/stream');
    expect(whole.status).toBe(200);
    expect(wav.length - 44).toBe(exact.length);
  });

  it.each([SPEAK, SPEAK_STREAM])(
    '%s: a provider failure is a 502, no provider a 503 naming TTS_PROVIDER',
    async (path) => {
      // Prepare
      api().audio.enqueueSpeech({ status: 400, body: { error: { message: 'unknown voice' } } });
      const send = (server: LocalApiServer) =>
        postRaw(server, path, JSON.stringify({ text: 'Hi.' }), {
          'content-type': 'application/json',
        });

      // Act
      const failed = await read(await send(api().speaking));
      const missing = await read(await send(api().silent));

      // Assess
      expectError(failed, 502, 'speech_provider_failed');
      const error = expectError(missing, 503, 'speech_not_configured');
      expect(error.error.message).toContain('TTS_PROVIDER');
    },
  );
});

describe('POST /api/v0/media/tts/speak/stream', () => {
  it('sends the first PCM bytes, with their format, before the provider has sent the rest', async () => {
    // Prepare
    const pcm = tonePcm(0.4, SPEECH_RATE);
    const rest = releasable();
    api().audio.enqueueSpeech({ audio: pcm, chunks: 4, holdAfterFirstChunk: rest.promise });

    // Act
    const response = await postRaw(
      api().speaking,
      SPEAK_STREAM,
      JSON.stringify({ text: 'Streaming.' }),
      {
        'content-type': 'application/json',
      },
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    // Only now may the provider go on: the bytes above were sent while it held the rest.
    rest.release();
    const parts = [first.value as Uint8Array];
    for (let next = await reader.read(); !next.done; next = await reader.read())
      parts.push(next.value);

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('x-audio-sample-rate')).toBe(String(SPEECH_RATE));
    expect(response.headers.get('x-audio-channels')).toBe('1');
    expect(response.headers.get('x-audio-sample-width')).toBe('2');
    expect(first.value?.length).toBeGreaterThan(0);
    expect(first.value?.length).toBeLessThan(pcm.length);
    expect(Buffer.concat(parts)).toEqual(Buffer.from(pcm));
    expect(api().output.join('')).toContain('time_to_first_audio_byte');
  });

  it('lets a node hang up midway: the synthesis runs out and the next request is served', async () => {
    // Prepare
    const pcm = tonePcm(0.4, SPEECH_RATE);
    const rest = releasable();
    api().audio.enqueueSpeech({ audio: pcm, chunks: 4, holdAfterFirstChunk: rest.promise });
    api().audio.enqueueSpeech({ audio: pcm });
    const speak = () =>
      postRaw(api().speaking, SPEAK_STREAM, JSON.stringify({ text: 'Hello.' }), {
        'content-type': 'application/json',
      });

    // Act
    const abandoned = await speak();
    const reader = (abandoned.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    rest.release();
    const next = await speak();
    const bytes = new Uint8Array(await next.arrayBuffer());

    // Assess
    expect(abandoned.status).toBe(200);
    expect(next.status).toBe(200);
    expect(Buffer.from(bytes)).toEqual(Buffer.from(pcm));
  });

  it('ends the audio early when the provider drops midway, and counts the failure', async () => {
    // Prepare
    const pcm = tonePcm(0.4, SPEECH_RATE);
    const rest = releasable();
    api().audio.enqueueSpeech({
      audio: pcm,
      chunks: 4,
      holdAfterFirstChunk: rest.promise,
      dropAfterChunks: 2,
    });

    // Act
    const response = await postRaw(
      api().speaking,
      SPEAK_STREAM,
      JSON.stringify({ text: 'Dropped.' }),
      { 'content-type': 'application/json' },
    );
    // The 200 went out with the first bytes; only then does the provider go on, and drop.
    rest.release();
    const bytes = new Uint8Array(await response.arrayBuffer());

    // Assess
    expect(response.status).toBe(200);
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.length).toBeLessThan(pcm.length);
    expect(api().output.join('')).toContain('speech failed after its first bytes');
  });
});
