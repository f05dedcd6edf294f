import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ModelReferenceError,
  PINNED_MODELS,
  parseModelReference,
} from '../../../../infra/local/model-files';

let folder: string;
let modelPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'model-reference-'));
  modelPath = join(folder, 'model.gguf');
  await writeFile(modelPath, 'GGUF');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const accepted =
  'use hf:<user>/<repo>/<file> (a file on the hub, or HF_ENDPOINT), a path to a model file, or none';

describe('parseModelReference', () => {
  it.each([
    [
      'hf:unsloth/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q8_0.gguf',
      'unsloth/Qwen3-1.7B-GGUF',
      'Qwen3-1.7B-Q8_0.gguf',
    ],
    ['hf:acme/models/Q4_K_M/part.gguf', 'acme/models', 'Q4_K_M/part.gguf'],
    [
      '  hf:ggerganov/whisper.cpp/ggml-small.en-q5_1.bin ',
      'ggerganov/whisper.cpp',
      'ggml-small.en-q5_1.bin',
    ],
  ])('reads %s as a hub file', (text, repo, file) => {
    expect(parseModelReference(text)).toEqual({ kind: 'hub', file: { repo, file } });
  });

  it('reads a pinned file with its pin (pinned-models.test.ts), matched exactly', () => {
    expect(
      parseModelReference(` hf:${PINNED_MODELS.speech.repo}/${PINNED_MODELS.speech.file}`),
    ).toEqual({
      kind: 'hub',
      file: PINNED_MODELS.speech,
    });
    const { repo, file } = PINNED_MODELS.language;
    expect(parseModelReference(`hf:${repo}/${file.toLowerCase()}`)).toEqual({
      kind: 'hub',
      file: { repo, file: file.toLowerCase() },
    });
  });

  it.each(['none', 'NONE', ' none '])('reads %j as no model', (text) => {
    expect(parseModelReference(text)).toEqual({ kind: 'none' });
  });

  it('reads an absolute or a relative path to an existing file as that file', () => {
    expect(parseModelReference(modelPath)).toEqual({ kind: 'path', path: modelPath });
    expect(parseModelReference(relative(process.cwd(), modelPath))).toEqual({
      kind: 'path',
      path: modelPath,
    });
  });

  it.each([
    ['', 'no model named'],
    ['hf:acme', '"hf:acme" names no file of the repository'],
    ['hf:acme/models', '"hf:acme/models" names no file of the repository'],
    [
      'hf:acme/models/../../etc/passwd',
      '"../../etc/passwd" is not a file path inside a repository',
    ],
    ['hf:acme/models/a//b.gguf', '"a//b.gguf" is not a file path inside a repository'],
    ['hf:ac me/models/a.gguf', '"ac me/models" is not a hub repository name (user/repo)'],
  ])('refuses %j: %s', (text, problem) => {
    expect(() => parseModelReference(text, 'LLM_MODEL')).toThrow(
      new ModelReferenceError(text, problem, 'LLM_MODEL'),
    );
    expect(() => parseModelReference(text, 'LLM_MODEL')).toThrow(
      `LLM_MODEL: ${problem}: ${accepted}`,
    );
  });

  it('refuses a path where there is no file, saying which path it looked at', () => {
    const missing = join(folder, 'absent.gguf');
    expect(() => parseModelReference(missing)).toThrow(`no file at ${missing}: ${accepted}`);
    expect(() => parseModelReference(folder)).toThrow(`no file at ${folder}: ${accepted}`);
  });
});
