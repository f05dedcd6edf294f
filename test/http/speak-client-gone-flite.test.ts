import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import {
  compileFlite,
  EmbeddedFliteTextToSpeech,
} from '../../shared/adapters/speech/embedded-flite-text-to-speech';
import { FliteWorkers } from '../../shared/adapters/speech/flite-workers';
import { apiKeyOf, NODE_A } from '../support/local-stack-harness';
import { postRaw, useSpeechApi } from './speech-api';

/** The speaking server's synthesizer threads, watched by the test. */
const workers = new FliteWorkers({ size: 1, module: compileFlite });
const api = useSpeechApi({
  textToSpeech: () => new EmbeddedFliteTextToSpeech({ voice: 'slt', workers }),
});
const SPEAK = routePath('media-speak');

/** About 20 pieces of prose: seconds of Flite work, far more than the client waits for. */
const LONG_TEXT = Array.from(
  { length: 24 },
  (_, index) =>
    `Sentence ${index + 1} says the kitchen lights are on and the front door is locked.`,
).join(' ');

describe('POST /api/v0/media/tts/speak with embedded Flite when the client leaves', () => {
  it('stops the synthesis mid-way: its thread is ended, not handed back after the last piece', async () => {
    // Prepare: a thread started and warm, so the synthesis below is the one that ends it.
    const warm = await postRaw(api().speaking, SPEAK, JSON.stringify({ text: 'Ready.' }), {
      'content-type': 'application/json',
    });
    expect(warm.status).toBe(200);
    expect(workers.idleCount).toBe(1);
    const client = new AbortController();
    const sent = fetch(`${api().speaking.url}${SPEAK}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
      body: JSON.stringify({ text: LONG_TEXT }),
      signal: client.signal,
    }).catch(() => 'left');
    await expect.poll(() => workers.lentCount, { timeout: 10_000 }).toBe(1);

    // Act
    client.abort();

    // Assess: the synthesis ended (its thread no longer lent) by stopping its thread, which a
    // synthesis spoken to its end hands back to the idle ones.
    expect(await sent).toBe('left');
    await expect.poll(() => workers.lentCount, { timeout: 30_000 }).toBe(0);
    expect(workers.idleCount).toBe(0);

    // The next request works, on a new thread.
    const next = await postRaw(api().speaking, SPEAK, JSON.stringify({ text: 'Hi.' }), {
      'content-type': 'application/json',
    });
    expect(next.status).toBe(200);
  });
});
