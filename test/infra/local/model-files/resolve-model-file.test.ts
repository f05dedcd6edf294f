import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NotAModelFileError,
  parseModelReference,
  resolveModelFile,
} from '../../../../infra/local/model-files';
import { ggufBytes } from '../../../support/scripted-hub-server';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'resolve-model-'));
  await writeFile(join(folder, 'model.gguf'), ggufBytes(64));
  const ggml = Buffer.alloc(64);
  ggml.writeUInt32LE(0x67676d6c, 0);
  await writeFile(join(folder, 'ggml-base.en.bin'), ggml);
  await writeFile(join(folder, 'notes.gguf'), 'these are notes, not weights');
  await writeFile(join(folder, 'ggml-parakeet.bin'), ggufBytes(64));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

// No hub is asked for a path or none: an endpoint nobody serves proves it.
const settings = () => ({ cacheDir: join(folder, 'cache'), endpoint: 'http://127.0.0.1:1' });

describe('resolveModelFile', () => {
  it('answers none with null and a path with that path once its magic bytes are the right ones', async () => {
    const gguf = join(folder, 'model.gguf');
    const ggml = join(folder, 'ggml-base.en.bin');
    expect(await resolveModelFile({ kind: 'none' }, settings())).toBeNull();
    expect(await resolveModelFile(parseModelReference(gguf), settings())).toBe(gguf);
    expect(await resolveModelFile(parseModelReference(ggml), settings())).toBe(ggml);
    expect(await resolveModelFile(parseModelReference(ggml), settings(), { format: null })).toBe(
      ggml,
    );
    // A .bin may be a GGUF too (newer whisper.cpp models are).
    const ggufBin = join(folder, 'ggml-parakeet.bin');
    expect(await resolveModelFile(parseModelReference(ggufBin), settings())).toBe(ggufBin);
  });

  it.each([
    ['notes.gguf', undefined, 'GGUF model'],
    ['notes.gguf', null, 'GGUF or whisper.cpp ggml model'],
    ['ggml-base.en.bin', 'gguf', 'GGUF model'],
    ['model.gguf', 'ggml', 'whisper.cpp ggml model'],
  ] as const)(
    'refuses %s read as %s, naming the file and the format',
    async (file, format, expected) => {
      const path = join(folder, file);
      const failure = await resolveModelFile(
        parseModelReference(path),
        settings(),
        format === undefined ? {} : { format },
      ).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(NotAModelFileError);
      expect((failure as Error).message).toBe(
        `${path} is not a ${expected} file (its first bytes are not the format's magic); name a ${expected} file instead`,
      );
    },
  );
});
