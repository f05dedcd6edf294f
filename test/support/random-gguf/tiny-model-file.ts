import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { TINY_QWEN3, writeRandomQwen3Gguf } from './write-random-gguf';

/**
 * A tiny random-weight Qwen3 GGUF (2 layers, about 16 MB with Qwen3's real tokenizer and chat
 * template) written to a temporary folder before the calling file's tests and removed after:
 * llama.cpp loads and runs it as it runs the real model, in milliseconds per token.
 */
export function useTinyModelFile(): () => string {
  let directory: string | null = null;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'jcc-tiny-gguf-'));
    writeRandomQwen3Gguf(join(directory, 'tiny-qwen3.gguf'), TINY_QWEN3, 'q8_0');
  });
  afterAll(() => {
    if (directory !== null) rmSync(directory, { recursive: true, force: true });
  });
  return () => {
    if (directory === null) throw new Error('the tiny model is written in beforeAll');
    return join(directory, 'tiny-qwen3.gguf');
  };
}
