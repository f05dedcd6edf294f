import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type EmbeddedModelReference,
  embeddedModelReference,
  ModelChecksumError,
  PINNED_MODELS,
  resolveModelFile,
} from '../../../../infra/local/model-files';
import { ggufBytes, sha256Of, startScriptedHubServer } from '../../../support/scripted-hub-server';
import { useLoopbackServer } from '../../../support/use-loopback-server';

const hub = useLoopbackServer('scripted hub', startScriptedHubServer);

let cacheDir: string;
beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'embedded-references-'));
});
afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

const hubName = (file: { readonly repo: string; readonly file: string }) =>
  `hf:${file.repo}/${file.file}`;

describe('embeddedModelReference: which file npm start runs', () => {
  it.each([
    ['language', {}, { kind: 'hub', file: PINNED_MODELS.language }],
    ['speech', {}, { kind: 'hub', file: PINNED_MODELS.speech }],
    ['language', { LLM_MODEL: 'none' }, { kind: 'none' }],
    ['speech', { STT_MODEL: ' NONE ' }, { kind: 'none' }],
    [
      'language',
      { LLM_MODEL: 'hf:acme/models/tiny.gguf' },
      { kind: 'hub', file: { repo: 'acme/models', file: 'tiny.gguf' } },
    ],
    [
      'language',
      { LLM_MODEL: hubName(PINNED_MODELS.languageSmall) },
      { kind: 'hub', file: PINNED_MODELS.languageSmall },
    ],
    [
      'speech',
      { STT_MODEL: hubName(PINNED_MODELS.speechBase) },
      { kind: 'hub', file: PINNED_MODELS.speechBase },
    ],
  ] as const)('%s model, with %j: %j', (model, env, reference) => {
    expect(embeddedModelReference(env, model)).toMatchObject({ server: null, reference });
  });

  it.each([
    [
      'language',
      { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'qwen2.5:7b' },
      'OPENAI_BASE_URL is set, npm start uses that server',
    ],
    [
      'language',
      { MODEL_PROVIDER: 'Bedrock', LLM_MODEL: 'openai.gpt-oss-20b' },
      'MODEL_PROVIDER=bedrock, npm start uses Bedrock',
    ],
    [
      'speech',
      { STT_BASE_URL: 'http://127.0.0.1:9000/v1', STT_MODEL: 'whisper-1' },
      'STT_BASE_URL is set, npm start uses that server',
    ],
  ] as const)('%s model, with %j: none, a server runs it', (model, env, server) => {
    expect(embeddedModelReference(env, model)).toMatchObject({ server, reference: null });
  });
});

describe('a pinned file named by its setting', () => {
  // Each is checked against its pin even where the hub vouches for another file: a loopback hub
  // serves a small GGUF under the pinned name, with that file's own (consistent) X-Linked-Etag.
  it.each([
    ['language', 'LLM_MODEL', 'language'],
    ['language', 'LLM_MODEL', 'languageSmall'],
    ['speech', 'STT_MODEL', 'speech'],
    ['speech', 'STT_MODEL', 'speechBase'],
  ] as const)(
    '%s model, %s naming the pinned %s file: its pin decides, not the hub',
    async (model, setting, key) => {
      // Prepare
      const pinned = PINNED_MODELS[key];
      const impostor = ggufBytes(50_000);
      hub.serve(pinned.repo, pinned.file, { body: impostor });
      const embedded: EmbeddedModelReference = embeddedModelReference(
        { [setting]: hubName(pinned) },
        model,
      );

      // Act
      const failure = await resolveModelFile(
        embedded.reference ?? { kind: 'none' },
        { cacheDir, endpoint: hub.endpoint },
        { format: embedded.format },
      ).catch((error: unknown) => error);

      // Assess
      expect(failure).toBeInstanceOf(ModelChecksumError);
      expect(failure).toMatchObject({
        expected: pinned.sha256,
        actual: sha256Of(impostor),
        stage: 'announced',
      });
      expect(hub.requests.filter((request) => request.path.startsWith('/cdn/'))).toEqual([]);
      expect(await readdir(cacheDir, { recursive: true })).not.toContain(pinned.file);
    },
  );
});
