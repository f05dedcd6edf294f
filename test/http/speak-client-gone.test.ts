import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { apiKeyOf, NODE_A } from '../support/local-stack-harness';
import { releasable, tonePcm } from '../support/speech-audio';
import { postRaw, SPEECH_RATE, useSpeechApi } from './speech-api';

const api = useSpeechApi();
const SPEAK = routePath('media-speak');

describe('POST /api/v0/media/tts/speak when the client leaves', () => {
  it('stops the synthesis: the provider’s request is closed before its audio is whole', async () => {
    // Prepare: a provider that sends its first audio and then holds the rest (until the test
    // ends, far past the client: only the client leaving can end the exchange before the turn
    // deadline of 25 s).
    const held = releasable();
    const closed: boolean[] = [];
    api().audio.enqueueSpeech({
      audio: tonePcm(1, SPEECH_RATE),
      chunks: 4,
      holdAfterFirstChunk: held.promise,
      whenClosed: (sentWhole) => closed.push(sentWhole),
    });
    const client = new AbortController();
    const sent = fetch(`${api().speaking.url}${SPEAK}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'A long story.' }),
      signal: client.signal,
    }).catch(() => 'left');
    await expect.poll(() => api().audio.requests.length, { timeout: 10_000 }).toBe(1);

    // Act
    client.abort();

    // Assess: the provider's exchange was ended by us, its audio not sent whole.
    expect(await sent).toBe('left');
    await expect.poll(() => closed, { timeout: 10_000 }).toEqual([false]);
    held.release();
    // Its metrics (the text's 13 characters): a client leaving is no provider error.
    const metricsOfLeft = () =>
      api().output.find((line) => line.includes('"characters_synthesized":13'));
    await expect.poll(metricsOfLeft, { timeout: 10_000 }).toBeDefined();
    expect(metricsOfLeft()).not.toContain('speech_provider_errors');

    // The next request works.
    api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
    const next = await postRaw(api().speaking, SPEAK, JSON.stringify({ text: 'Hi.' }), {
      'content-type': 'application/json',
    });
    expect(next.status).toBe(200);
  });
});
