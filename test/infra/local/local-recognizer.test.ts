import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { providedByNpmStart } from '../../../functions/wiring/npm-start-provisions';
import { LocalSettingsError } from '../../../infra/local/local-settings';
import { type LocalRecognizer, provideLocalRecognizer } from '../../../infra/local/local-speech';
import { PINNED_MODELS, PINNED_MOONSHINE } from '../../../infra/local/model-files';
import { MOONSHINE_FILE_NAMES } from '../../../shared/adapters/speech/recognizer-engines';
import { TEST_MOONSHINE_WORDS, writeTestMoonshineModel } from '../../support/moonshine-test-model';
import {
  type ScriptedHubServer,
  sha256Of,
  startScriptedHubServer,
} from '../../support/scripted-hub-server';
import { toneWav } from '../../support/speech-audio';
import { removeTestModelFoldersAfterAll } from '../../support/test-model-folders';
import { writeTestWhisperModel } from '../../support/whisper-test-model';

const silent = { report: () => undefined };
const noLog = () => undefined;

let hub: ScriptedHubServer;
let model: Buffer;
/** The test Moonshine model's folder and its five files' bytes, by file name. */
let moonshineFolder: string;
let moonshine: [string, Buffer][];
let cacheDir: string;
const provided: LocalRecognizer[] = [];

beforeAll(async () => {
  hub = await startScriptedHubServer();
  model = await readFile(await writeTestWhisperModel());
  const files = await writeTestMoonshineModel();
  moonshineFolder = dirname(files.tokens);
  moonshine = await Promise.all(
    Object.values(MOONSHINE_FILE_NAMES).map(
      async (name) => [name, await readFile(join(moonshineFolder, name))] as [string, Buffer],
    ),
  );
});
afterEach(async () => {
  for (const recognizer of provided.splice(0)) recognizer.close();
  hub.reset();
  if (cacheDir !== undefined) await rm(cacheDir, { recursive: true, force: true });
});
afterAll(() => hub.close());
removeTestModelFoldersAfterAll();

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

const oneSecond = {
  wav: toneWav(1, 48_000, [[{ hz: 440, amplitude: 0.3 }]]),
  format: { sampleRate: 48_000, channels: 1, sampleWidth: 2 },
  durationSeconds: 1,
};

describe('npm start’s recognizer: Moonshine on sherpa-onnx (STT_ENGINE unset)', () => {
  it('fetches the five files of the hf: repository STT_MODEL names into the cache and hears with them', async () => {
    // Prepare
    for (const [name, body] of moonshine) {
      hub.serve('someone/moonshine-tests', name, { body, publishedSha256: sha256Of(body) });
    }

    // Act
    const recognizer = await provide({
      STT_MODEL: 'hf:someone/moonshine-tests',
      STT_THREADS: '1',
    });
    const heard = await providedByNpmStart('recognizer')?.transcribe(oneSecond, {
      timeoutMs: 600_000,
    });

    // Assess
    const cached = join(cacheDir, 'someone', 'moonshine-tests');
    expect(recognizer.hears).toBe(
      `embedded sherpa-onnx, Moonshine model moonshine-tests (${cached})`,
    );
    expect(heard).toEqual({ text: TEST_MOONSHINE_WORDS.join(' ') });
  });

  it('hears with the files of a folder STT_MODEL names', async () => {
    // Act
    const recognizer = await provide({ STT_MODEL: moonshineFolder, STT_ENGINE: 'sherpa' });
    const heard = await providedByNpmStart('recognizer')?.transcribe(oneSecond, {
      timeoutMs: 600_000,
    });

    // Assess
    expect(recognizer.hears).toContain(`(${moonshineFolder})`);
    expect(heard).toEqual({ text: TEST_MOONSHINE_WORDS.join(' ') });
    expect(hub.requests).toEqual([]);
  });

  it('fetches the pinned Moonshine tiny by default, and refuses a file that is not it in one line', async () => {
    // Prepare: the hub serves other bytes where the pinned files are.
    for (const [name, body] of moonshine) {
      hub.serve(PINNED_MOONSHINE[0]?.repo ?? '', name, { body, publishedSha256: sha256Of(body) });
    }

    // Act
    const started = provide({});

    // Assess
    await expect(started).rejects.toThrow(LocalSettingsError);
    await expect(started).rejects.toThrow(/^speech model \(STT_MODEL\): .*SHA-256/);
    expect(hub.requests.map((request) => request.path)).toContain(
      `/${PINNED_MOONSHINE[0]?.repo}/resolve/main/preprocess.onnx`,
    );
    expect(providedByNpmStart('recognizer')).toBeNull();
  });

  it('says in one line which file a folder STT_MODEL names lacks', async () => {
    // Prepare
    const folder = await mkdtemp(join(tmpdir(), 'jcc-moonshine-half-'));
    for (const [name, body] of moonshine.slice(0, 4)) await writeFile(join(folder, name), body);

    // Act
    const started = provide({ STT_MODEL: folder });

    // Assess
    await expect(started).rejects.toThrow(
      `speech model: STT_MODEL: no tokens.txt in ${folder}: use hf:<user>/<repo>`,
    );
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses an STT_ENGINE it does not know in one line', async () => {
    await expect(provide({ STT_ENGINE: 'vosk' })).rejects.toThrow(
      'STT_ENGINE must be one of sherpa, whisper, got "vosk"',
    );
    expect(hub.requests).toEqual([]);
  });
});

describe('npm start’s recognizer: whisper.cpp (STT_ENGINE=whisper)', () => {
  it('fetches an hf: model STT_MODEL names into the cache and hears with it', async () => {
    // Prepare
    hub.serve('someone/whisper-tests', 'ggml-random-test.bin', {
      body: model,
      publishedSha256: sha256Of(model),
    });

    // Act
    const recognizer = await provide({
      STT_ENGINE: 'whisper',
      STT_MODEL: 'hf:someone/whisper-tests/ggml-random-test.bin',
      STT_THREADS: '1',
    });
    const heard = await providedByNpmStart('recognizer')?.transcribe(
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
    const started = provide({ STT_ENGINE: 'whisper' });

    // Assess
    await expect(started).rejects.toThrow(LocalSettingsError);
    await expect(started).rejects.toThrow(/^speech model \(STT_MODEL\): .*SHA-256/);
    expect(hub.requests.map((request) => request.path)).toContain(`/${repo}/resolve/main/${file}`);
    expect(providedByNpmStart('recognizer')).toBeNull();
  });

  it.each([
    [{ STT_MODEL: 'none' }],
    [{ STT_MODEL: 'NONE' }],
    [{ STT_ENGINE: 'whisper', STT_MODEL: 'none' }],
    [{ STT_BASE_URL: 'http://127.0.0.1:8000/v1' }],
  ])('hears with nothing embedded for %j: the route’s 503, or the server', async (env) => {
    // Act
    const recognizer = await provide(env);

    // Assess
    expect(recognizer.hears).toBeNull();
    expect(providedByNpmStart('recognizer')).toBeNull();
    expect(hub.requests).toEqual([]);
  });

  it('says in one line that a path STT_MODEL names is missing', async () => {
    await expect(
      provide({ STT_ENGINE: 'whisper', STT_MODEL: '/nowhere/ggml-base.en.bin' }),
    ).rejects.toThrow(/^speech model: STT_MODEL: no file at \/nowhere\/ggml-base\.en\.bin/);
  });

  it.each(['0', '9', '1.5', 'two'])('refuses STT_THREADS=%s in one line', async (threads) => {
    await expect(
      provide({ STT_THREADS: threads, STT_MODEL: 'hf:someone/whisper-tests/ggml-random-test.bin' }),
    ).rejects.toThrow(`STT_THREADS must be an integer from 1 to 8, got "${threads}"`);
    expect(hub.requests).toEqual([]);
  });
});
