import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { ROUTES } from '../support/api-client';
import { apiKeyOf, NODE_A, useLocalStack } from '../support/local-stack-harness';
import { tonePcm, wavFile } from '../support/speech-audio';
import { startWithFixture, textReply } from './http-fixtures';
import { expectError } from './response-contract';

// `npm start` as a newcomer runs it: no speech setting at all, so the embedded synthesizer speaks
// (the harness sets STT_MODEL=none: the embedded recognizer's default model is a download).
const harness = useLocalStack();

const post = (path: string, body: string | FormData, contentType?: string) =>
  fetch(`${harness.stack.url}${path}`, {
    method: 'POST',
    headers: {
      'x-api-key': apiKeyOf(NODE_A),
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
    },
    body,
  });

describe('npm start with no speech settings', () => {
  it('speaks a final answer on voice/command/stream with the embedded synthesizer: 200 PCM', async () => {
    // Prepare
    const id = await startWithFixture(harness.client(), 'npm-start-speaks');
    const answer = 'It will be sunny tomorrow.';
    harness.llm.enqueue(textReply(answer));

    // Act
    const response = await post(
      ROUTES.commandStream,
      JSON.stringify({ conversation_id: id, voice_command: 'will it be sunny' }),
      'application/json',
    );
    const pcm = new Uint8Array(await response.arrayBuffer());

    // Assess
    expect(response.status).toBe(200);
    expect(decodeURIComponent(response.headers.get('x-assistant-message') ?? '')).toBe(answer);
    const rate = Number(response.headers.get('x-audio-sample-rate'));
    expect(rate).toBeGreaterThanOrEqual(8_000);
    expect(response.headers.get('x-audio-sample-width')).toBe('2');
    // A sentence is well over a tenth of a second of audio, in whole 16-bit samples.
    expect(pcm.length).toBeGreaterThan(rate * 2 * 0.1);
    expect(pcm.length % 2).toBe(0);
  });

  it('answers media/tts/speak with a WAV file of that speech', async () => {
    // Act
    const response = await post(
      routePath('media-speak'),
      JSON.stringify({ text: 'Good morning.' }),
      'application/json',
    );
    const wav = Buffer.from(await response.arrayBuffer());

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.length).toBeGreaterThan(44);
  });

  it('has no recognizer with STT_MODEL=none: transcribe answers 503 naming what to set', async () => {
    // Prepare
    const form = new FormData();
    const recording = wavFile(tonePcm(0.5, 16_000), {
      sampleRate: 16_000,
      channels: 1,
      sampleWidth: 2,
    });
    form.append('file', new Blob([Buffer.from(recording)], { type: 'audio/wav' }), 'r.wav');

    // Act
    const response = await post(routePath('media-transcribe'), form);
    const text = await response.text();

    // Assess
    const error = expectError(
      { status: response.status, headers: response.headers, json: JSON.parse(text), text },
      503,
      'speech_not_configured',
    );
    expect(error.error.message).toContain('STT_BASE_URL');
  });
});
