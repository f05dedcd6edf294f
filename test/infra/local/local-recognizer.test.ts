import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalSettingsError } from '../../../infra/local/local-settings';
import { type LocalRecognizer, provideLocalRecognizer } from '../../../infra/local/local-speech';
import { PINNED_MODELS } from '../../../infra/local/model-files';
import { embeddedRecognizer } from '../../../shared/adapters/speech/embedded-recognizer-slot';
import {
  type ScriptedHubServer,
  sha256Of,
  startScriptedHubServer,
} from '../../support/scripted-hub-server';
import { toneWav } from '../../support/speech-audio';
import { writeTestWhisperModel } from '../../support/whisper-test-model';

const silent = { report: () => undefined };
const noLog = () => undefined;

let hub: ScriptedHubServer;
let model: Buffer;
let cacheDir: string;
const provided: LocalRecognizer[] = [];

beforeAll(async () => {
  hub = await startScriptedHubServer();
  model = await readFile(await writeTestWhisperModel());
});
afterEach(async () => {
  for (const recognizer of provided.splice(0)) recognizer.close();
  hub.reset();
  if (cacheDir !== undefined) await rm(cacheDir, { recursive: true, force: true });
});
afterAll(() => hub.close());

async function provide(env: NodeJS.ProcessEnv): Promise<LocalRecognizer> {
  cacheDir = await mkdtemp(join(tmpdir(), 'jcc-stt-cache-'));
  const recognizer = await provideLocalRecognizer(
    { HF_ENDPOINT: hub.endpoint, MODEL_CACHE_DIR: cacheDir, ...env },
    noLog,
    silent,
  );
  provided.push(recognizer);
  return recognizer;
}

describe('npm start’s recognizer (STT_BASE_URL unset)', () => {
  it('fetches an hf: model STT_MODEL names into the cache and hears with it', async () => {
    // Prepare
    hub.serve('someone/whisper-tests', 'ggml-random-test.bin', {
      body: model,
      publishedSha256: sha256Of(model),
    });

    // Act
    const recognizer = await provide({
      STT_MODEL: 'hf:someone/whisper-tests/ggml-random-test.bin',
      STT_THREADS: '1',
    });
    const heard = await embeddedRecognizer()?.transcribe(
      {
        wav: toneWav(1, 48_000, [[{ hz: 440, amplitude: 0.3 }]]),
        format: { sampleRate: 48_000, channels: 1, sampleWidth: 2 },
        durationSeconds: 1,
      },
      { timeoutMs: 600_000 },
    );

    // Assess
    const cached = join(cacheDir, 'someone', 'whisper-tests', 'ggml-random-test.bin');
    expect(recognizer.hears).toBe(`embedded whisper.cpp, model ggml-random-test.bin (${cached})`);
    expect(heard).toEqual({ text: expect.any(String) });
  });

  it('fetches the pinned tiny.en by default, and refuses a file that is not it in one line', async () => {
    // Prepare: the hub serves other bytes where the pinned file is.
    const { repo, file } = PINNED_MODELS.speech;
    hub.serve(repo, file, { body: model, publishedSha256: sha256Of(model) });

    // Act
    const started = provide({});

    // Assess
    await expect(started).rejects.toThrow(LocalSettingsError);
    await expect(started).rejects.toThrow(/^speech model \(STT_MODEL\): .*SHA-256/);
    expect(hub.requests.map((request) => request.path)).toContain(`/${repo}/resolve/main/${file}`);
    expect(embeddedRecognizer()).toBeNull();
  });

  it.each([
    [{ STT_MODEL: 'none' }],
    [{ STT_MODEL: 'NONE' }],
    [{ STT_BASE_URL: 'http://127.0.0.1:8000/v1' }],
  ])('hears with nothing embedded for %j: the route’s 503, or the server', async (env) => {
    // Act
    const recognizer = await provide(env);

    // Assess
    expect(recognizer.hears).toBeNull();
    expect(embeddedRecognizer()).toBeNull();
    expect(hub.requests).toEqual([]);
  });

  it('says in one line that a path STT_MODEL names is missing', async () => {
    await expect(provide({ STT_MODEL: '/nowhere/ggml-base.en.bin' })).rejects.toThrow(
      /^speech model: STT_MODEL: no file at \/nowhere\/ggml-base\.en\.bin/,
    );
  });

  it.each(['0', '9', '1.5', 'two'])('refuses STT_THREADS=%s in one line', async (threads) => {
    await expect(
      provide({ STT_THREADS: threads, STT_MODEL: 'hf:someone/whisper-tests/ggml-random-test.bin' }),
    ).rejects.toThrow(`STT_THREADS must be an integer from 1 to 8, got "${threads}"`);
    expect(hub.requests).toEqual([]);
  });
});
