import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import {
  apiKeyOf,
  NODE_A,
  NODE_B,
  type TestNode,
  useLocalStack,
} from '../support/local-stack-harness';
import { TEST_MOONSHINE_WORDS, writeTestMoonshineModel } from '../support/moonshine-test-model';
import { toneWav } from '../support/speech-audio';
import { removeTestModelFoldersAfterAll } from '../support/test-model-folders';

// `npm start` with no STT_BASE_URL and STT_MODEL naming a folder of Moonshine's files: the
// embedded recognizer (sherpa-onnx, the default engine), here a random-weight model that says
// TEST_MOONSHINE_WORDS, through the real addon, behind the real route.
const modelFolder = dirname((await writeTestMoonshineModel()).tokens);
removeTestModelFoldersAfterAll();
const harness = useLocalStack({ env: { STT_MODEL: modelFolder } });

function transcribe(
  wav: Uint8Array,
  { node = NODE_A, signal }: { node?: TestNode; signal?: AbortSignal } = {},
): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(wav)], { type: 'audio/wav' }), 'recording.wav');
  return fetch(`${harness.stack.url}${routePath('media-transcribe')}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKeyOf(node) },
    body: form,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** The fields of /proc/<pid>/stat after the command's name. */
function statFields(pid: number): string[] {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
}

/**
 * The recognizer processes the stack (this process) has running now, read from /proc: each one
 * loaded the model once, so a new pid is a model loaded again.
 */
function recognizerPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const parent = Number(statFields(pid)[1]);
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return parent === process.pid && command.includes('recognizer-child');
      } catch {
        // Gone since the listing.
        return false;
      }
    });
}

/** Clock ticks (10 ms) of CPU, user and system, `pid` has used. */
function cpuTicks(pid: number): number {
  const fields = statFields(pid);
  return Number(fields[11]) + Number(fields[12]);
}

/** Resolves once `pid` has used no CPU for a while: its engine's threads have stopped spinning. */
async function settled(pid: number): Promise<number> {
  let last = -1;
  await expect
    .poll(
      () => {
        const now = cpuTicks(pid);
        const still = now === last;
        last = now;
        return still;
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true);
  return last;
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

  it('lets a client leave mid-recognition: the next recording, another node’s, is heard, by the process or by one new one', async () => {
    // Prepare: the model loaded and heard once.
    expect((await transcribe(toneWav(1, 16_000, [tone]))).status).toBe(200);
    const [pid, ...others] = recognizerPids();
    expect(others).toEqual([]);
    const idle = await settled(pid ?? 0);
    const client = new AbortController();
    const leaving = transcribe(toneWav(60, 32_000, [tone]), { signal: client.signal });

    // Act: the client hangs up once the recognizer works on its recording.
    await expect
      .poll(() => cpuTicks(pid ?? 0), { timeout: 30_000, interval: 5 })
      .toBeGreaterThan(idle + 3);
    client.abort();
    await expect(leaving).rejects.toThrow();
    const next = await transcribe(toneWav(2, 16_000, [tone]), { node: NODE_B });

    // Assess: heard; one recognizer process runs, the same one (what was left of the recognition
    // was shorter than a new process's start: it ran out) or a new one, the old one ended (it was
    // longer). Which one depends on this machine's pace; nothing is left running either way.
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual({ text: TEST_MOONSHINE_WORDS.join(' ') });
    const [after, ...more] = recognizerPids();
    expect(more).toEqual([]);
    if (after !== pid) expect(readdirSync('/proc')).not.toContain(String(pid));
  });
});
