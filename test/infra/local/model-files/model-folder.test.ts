import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ModelReferenceError,
  NotAModelFileError,
  parseModelFolderReference,
  readModelCacheSettings,
  resolveModelFolder,
} from '../../../../infra/local/model-files';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'model-folder-'));
  await writeFile(join(folder, 'encoder.onnx'), Buffer.from([0x08, 0x08, 0x12, 0x00]));
  await writeFile(join(folder, 'tokens.txt'), '<unk> 0\n');
  await writeFile(join(folder, 'not-onnx.onnx'), 'GGUF, not ONNX');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const settings = () => readModelCacheSettings({ MODEL_CACHE_DIR: join(folder, 'cache') });

describe('parseModelFolderReference', () => {
  it.each([
    [
      'hf:csukuangfj/sherpa-onnx-moonshine-tiny-en-int8',
      'csukuangfj/sherpa-onnx-moonshine-tiny-en-int8',
      '',
    ],
    ['hf:acme/models/int8/', 'acme/models', 'int8'],
    [' hf:acme/models/a/b ', 'acme/models', 'a/b'],
  ])('reads %s as a folder of a hub repository', (text, repo, hubFolder) => {
    expect(parseModelFolderReference(text)).toEqual({ kind: 'hub', repo, folder: hubFolder });
  });

  it('reads none, and a folder on this machine', () => {
    expect(parseModelFolderReference(' NONE ')).toEqual({ kind: 'none' });
    expect(parseModelFolderReference(folder)).toEqual({ kind: 'path', path: folder });
  });

  it.each([
    ['hf:acme', '"acme/" is not a hub repository name (user/repo)'],
    ['hf:acme/models/../up', '"../up/file" is not a file path inside a repository'],
    ['/nowhere/moonshine', 'no folder at /nowhere/moonshine'],
    ['', 'no model named'],
  ])('refuses %j in one line naming the setting and the forms it takes', (text, problem) => {
    expect(() => parseModelFolderReference(text, 'STT_MODEL')).toThrow(
      new ModelReferenceError(
        text,
        problem,
        'STT_MODEL',
        'use hf:<user>/<repo> or hf:<user>/<repo>/<folder> (on the hub, or HF_ENDPOINT), a path to a folder holding the model’s files, or none',
      ),
    );
  });
});

describe('resolveModelFolder on this machine', () => {
  it('answers the folder once every file is there in the format its name says', async () => {
    const resolved = resolveModelFolder(
      { kind: 'path', path: folder },
      ['encoder.onnx', 'tokens.txt'],
      settings(),
    );
    await expect(resolved).resolves.toBe(folder);
  });

  it('refuses a file whose first bytes are not its format’s', async () => {
    const resolved = resolveModelFolder(
      { kind: 'path', path: folder },
      ['not-onnx.onnx'],
      settings(),
    );
    await expect(resolved).rejects.toThrow(NotAModelFileError);
    await expect(resolved).rejects.toThrow(`${join(folder, 'not-onnx.onnx')} is not an ONNX model`);
  });

  it('names the file a folder lacks', async () => {
    const resolved = resolveModelFolder(
      { kind: 'path', path: folder },
      ['encoder.onnx', 'decoder.onnx'],
      settings(),
      { setting: 'STT_MODEL' },
    );
    await expect(resolved).rejects.toThrow(`STT_MODEL: no decoder.onnx in ${folder}: use hf:`);
  });

  it('answers nothing for none', async () => {
    await expect(resolveModelFolder({ kind: 'none' }, ['a.onnx'], settings())).resolves.toBeNull();
  });
});
