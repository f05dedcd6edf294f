import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { TINY_QWEN3, writeRandomQwen3Gguf } from './write-random-gguf';

/**
 * A tiny random-weight Qwen3 GGUF (2 layers, about 16 MB with Qwen3's real tokenizer and chat
 * template) written to a temporary folder before the calling file's tests and removed after:
 * llama.cpp loads and runs it as it runs the real model, in milliseconds per token. The path is
 * known at once (a stack's settings name it); the file exists from the first beforeAll on, so
 * call this before anything that loads it.
 */
export function useTinyModelFile(): string {
  const directory = join(tmpdir(), `jcc-tiny-gguf-${randomUUID()}`);
  const path = join(directory, 'tiny-qwen3.gguf');
  beforeAll(() => {
    mkdirSync(directory, { recursive: true });
    writeRandomQwen3Gguf(path, TINY_QWEN3, 'q8_0');
  });
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });
  return path;
}
