import { availableParallelism } from 'node:os';
import { getLlama, type Llama, LlamaLogLevel } from 'node-llama-cpp';
import {
  EmbeddedLanguageModel,
  type EmbeddedLanguageModelOptions,
} from './embedded-language-model';

/** How llama.cpp runs the model (npm start's LLM_* settings, infra/local/local-settings.ts). */
export interface EmbeddedModelRuntime {
  /**
   * Threads for evaluation. Measured on a 2-core VM: llama.cpp's default of 4 made generation
   * 200 times slower than 2; one per core available to the process is the default.
   */
  readonly threads: number;
  /**
   * Memory-map the weights instead of reading them in: measured 10 times slower on a VM whose
   * pages were evicted under load; off by default.
   */
  readonly mmap: boolean;
  /** Tokens one sequence holds: the prompt (system prompt, tools, exchange) and the reply. */
  readonly contextSize: number;
  /** Requests evaluated at once, each in its own sequence; 1 on a CPU gives each the whole CPU. */
  readonly parallel: number;
}

export const defaultThreads = (): number => Math.max(1, availableParallelism());

/** The model file could not be loaded; the message says which file and why, in one line. */
export class EmbeddedModelLoadError extends Error {
  override readonly name = 'EmbeddedModelLoadError';
}

export interface LoadedEmbeddedModel {
  readonly model: EmbeddedLanguageModel;
  /** Bytes of weights read (the file's tensors). */
  readonly sizeBytes: number;
  close(): Promise<void>;
}

let llama: Promise<Llama> | undefined;

/**
 * llama.cpp's prebuilt CPU addon, once per process: never built from source (`build: "never"`:
 * a missing binary is an error, not a compile), no GPU probing.
 */
function cpuLlama(threads: number): Promise<Llama> {
  llama ??= getLlama({
    build: 'never',
    gpu: false,
    maxThreads: threads,
    logLevel: LlamaLogLevel.error,
  });
  return llama;
}

/** Loads `path` and makes its context: the embedded model of `npm start`. */
export async function loadEmbeddedModel(
  path: string,
  runtime: EmbeddedModelRuntime,
  options: EmbeddedLanguageModelOptions,
): Promise<LoadedEmbeddedModel> {
  const binding = await cpuLlama(runtime.threads).catch((error: unknown) => {
    throw new EmbeddedModelLoadError(
      `the llama.cpp binding has no prebuilt binary for this machine (${String(error)}); set OPENAI_BASE_URL to use a model server instead`,
      { cause: error },
    );
  });
  const model = await binding
    .loadModel({ modelPath: path, useMmap: runtime.mmap, gpuLayers: 0 })
    .catch((error: unknown) => {
      throw new EmbeddedModelLoadError(
        `cannot load the model ${path}: ${error instanceof Error ? error.message : String(error)} (is it a GGUF file?)`,
        { cause: error },
      );
    });
  try {
    const context = await model.createContext({
      contextSize: Math.min(runtime.contextSize, model.trainContextSize),
      sequences: runtime.parallel,
      threads: runtime.threads,
    });
    const embedded = new EmbeddedLanguageModel(model, context, options);
    return {
      model: embedded,
      sizeBytes: model.size,
      close: async () => {
        // No evaluation left running under a disposed context (a warm-up finishing its prompt).
        await embedded.stop();
        await context.dispose();
        await model.dispose();
      },
    };
  } catch (error) {
    await model.dispose();
    throw new EmbeddedModelLoadError(
      `cannot run the model ${path}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
