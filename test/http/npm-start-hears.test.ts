import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { apiKeyOf, NODE_A, useLocalStack } from '../support/local-stack-harness';
import { TEST_MOONSHINE_WORDS, writeTestMoonshineModel } from '../support/moonshine-test-model';
import { toneWav } from '../support/speech-audio';

// `npm start` with no STT_BASE_URL and STT_MODEL naming a folder of Moonshine's files: the
// embedded recognizer (sherpa-onnx, the default engine), here a random-weight model that says
// TEST_MOONSHINE_WORDS, through the real addon, behind the real route.
const modelFolder = dirname((await writeTestMoonshineModel()).tokens);
const harness = useLocalStack({ env: { STT_MODEL: modelFolder } });

function transcribe(wav: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(wav)], { type: 'audio/wav' }), 'recording.wav');
  return fetch(`${harness.stack.url}${routePath('media-transcribe')}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKeyOf(NODE_A) },
    body: form,
  });
}

const tone = [{ hz: 440, amplitude: 0.3 }];

describe('npm start hears with the embedded recognizer', () => {
  it('names it in the banner’s words', () => {
    expect(harness.stack.speech.hears).toBe(
      `embedded sherpa-onnx, Moonshine model ${basename(modelFolder)} (${modelFolder})`,
    );
  });

  it('answers the node’s recording (7 s, 48 kHz, 16-bit) with 200 {"text"}', async () => {
    // Act
    const response = await transcribe(toneWav(7, 48_000, [tone]));
    const body = (await response.json()) as { text?: unknown };

    // Assess: resampled to 16 kHz, heard, and answered with what the model says.
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.text).toBe(TEST_MOONSHINE_WORDS.join(' '));
  });

  it('refuses a recording beyond the queue at once: 503 speech_busy with Retry-After', async () => {
    // Act: one heard, two waiting, the fourth refused.
    const responses = await Promise.all(
      [1, 2, 3, 4].map(() => transcribe(toneWav(20, 48_000, [tone]))),
    );

    // Assess
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 503]);
    const busy = responses.find((response) => response.status === 503);
    expect(busy?.headers.get('retry-after')).toBe('2');
    expect(await busy?.json()).toMatchObject({
      error: { code: 'speech_busy', details: [{ capacity: 3, retry_after_seconds: 2 }] },
    });
  });

  it('answers /health while a 60 s recording is heard: the recognizer works off the event loop', async () => {
    // Prepare
    let heard = false;
    const recognition = transcribe(toneWav(60, 16_000, [tone])).then(async (response) => {
      heard = true;
      return response;
    });

    // Act
    const health = await fetch(`${harness.stack.url}/health`);
    const answeredWhileHearing = !heard;

    // Assess
    expect(health.status).toBe(200);
    expect(answeredWhileHearing).toBe(true);
    expect((await recognition).status).toBe(200);
  });
});
