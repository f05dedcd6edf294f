import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLlama, LlamaLogLevel, type LlamaModel } from 'node-llama-cpp';
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

/**
 * The tiny model loaded through the binding for the calling file's tests (its tokenizer, its
 * template), disposed after them: read it with the returned function from a test on.
 */
export function useTinyModel(): () => LlamaModel {
  const path = useTinyModelFile();
  let model: LlamaModel | undefined;
  beforeAll(async () => {
    const llama = await getLlama({ build: 'never', gpu: false, logLevel: LlamaLogLevel.error });
    model = await llama.loadModel({ modelPath: path, useMmap: false, gpuLayers: 0 });
  });
  afterAll(async () => {
    await model?.dispose();
  });
  return () => {
    if (model === undefined) throw new Error('the tiny model loads in beforeAll');
    return model;
  };
}
