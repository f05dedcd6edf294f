import { dirname } from 'node:path';
import { provideToHandlers } from '../../functions/wiring/npm-start-provisions';
import { readSettings } from '../../shared/adapters/config/read-settings';
import { samplingFor } from '../../shared/adapters/embedded-model/embedded-sampling';
import {
  EmbeddedModelLoadError,
  loadEmbeddedModel,
} from '../../shared/adapters/embedded-model/load-embedded-model';
import { systemTiming, type Timing } from '../../shared/adapters/system/timing';
import { type LanguageModel, LanguageModelError } from '../../shared/ports/language-model';
import type { LocalModelSettings } from './local-settings';
import {
  embeddedModelReference,
  type ModelReference,
  progressTo,
  readModelCacheSettings,
  resolveModelFile,
} from './model-files';

/** The embedded model npm start runs, in words and figures for the banner. */
export interface LocalModel {
  /** The file's name (the banner's and `chat`'s model name). */
  readonly name: string;
  readonly path: string;
  /** The cache folder it was fetched into; null for a file the user named by its path. */
  readonly cachedIn: string | null;
  readonly threads: number;
  /** How long the start-up warm-up took, and the prompt it evaluated. */
  readonly warmUp: { readonly milliseconds: number; readonly promptTokens: number };
  close(): Promise<void>;
}

/**
 * Which model npm start runs in its own process (embeddedModelReference): none when a server
 * runs it (LLM_MODEL is then that server's model), else LLM_MODEL's file or the pinned default.
 * LLM_MODEL is then taken out of the handlers' environment: for them, no server is configured,
 * and the model is the one npm start provides (functions/wiring/npm-start-provisions.ts).
 */
export function takeEmbeddedModelReference(env: NodeJS.ProcessEnv): ModelReference | null {
  const { reference } = embeddedModelReference(env, 'language');
  if (reference !== null) delete env.LLM_MODEL;
  return reference;
}

/** The model file npm start loads, on this machine. */
export interface LocalModelFile {
  readonly path: string;
  /** The cache folder it was fetched into; null for a file the user named by its path. */
  readonly cachedIn: string | null;
}

/**
 * The one place a reference becomes a file on this machine: a path as it is, a hub file through
 * the cache (downloaded once, checked against its digest, with progress on stderr). Null for
 * `none`. npm start runs it beside the speech model's download.
 */
export async function resolveLocalModelFile(
  reference: ModelReference,
  env: NodeJS.ProcessEnv,
): Promise<LocalModelFile | null> {
  const path = await resolveModelFile(reference, readModelCacheSettings(env), {
    format: 'gguf',
    progress: progressTo(process.stderr),
  });
  if (path === null) return null;
  return { path, cachedIn: reference.kind === 'hub' ? dirname(path) : null };
}

/** The user message of the start-up warm-up: a short prompt, timed for the banner. */
const START_WARM_UP = {
  messages: [
    { role: 'system' as const, content: 'You are a voice assistant. Answer briefly.' },
    { role: 'user' as const, content: 'Hello.' },
  ],
  tools: [],
  toolChoice: 'auto' as const,
  maxTokens: 1,
};

/** Far above the second or so a 2-core machine needs. */
const START_WARM_UP_MS = 120_000;

/** Loads and warms the embedded model's file, and hands it to the handlers' wiring. */
export async function startEmbeddedModel(
  file: LocalModelFile,
  settings: LocalModelSettings,
  env: NodeJS.ProcessEnv,
  timing: Pick<Timing, 'monotonic'> = systemTiming,
): Promise<LocalModel> {
  const { values } = readSettings(env);
  const name = file.path.split(/[/\\]/).at(-1) ?? file.path;
  const loaded = await loadEmbeddedModel(file.path, settings.runtime, {
    name,
    maxTokens: values.MODEL_MAX_TOKENS,
    thinking: values.MODEL_THINKING,
    queuePlaces: settings.queuePlaces,
    toolCallGrammar: settings.toolCallGrammar,
    sampling: samplingFor(settings.temperature, values.MODEL_THINKING),
  });
  try {
    const warmUp = await timedWarmUp(loaded.model, timing);
    provideToHandlers('model', { model: loaded.model, name, maxTokens: values.MODEL_MAX_TOKENS });
    return {
      name,
      path: file.path,
      cachedIn: file.cachedIn,
      threads: settings.runtime.threads,
      warmUp,
      close: async () => {
        provideToHandlers('model', null);
        await loaded.close();
      },
    };
  } catch (error) {
    await loaded.close();
    throw error;
  }
}

async function timedWarmUp(
  model: LanguageModel,
  timing: Pick<Timing, 'monotonic'>,
): Promise<LocalModel['warmUp']> {
  const started = timing.monotonic();
  const reply = await model
    .complete(START_WARM_UP, { timeoutMs: START_WARM_UP_MS })
    .catch((error: unknown) => {
      // A model that cannot answer a 30-token prompt in that time cannot answer a turn.
      if (!(error instanceof LanguageModelError)) throw error;
      throw new EmbeddedModelLoadError(
        `the model loaded but did not answer its warm-up (${error.message}); try a smaller model (docs/embedded-model.md) or LLM_THREADS`,
        { cause: error },
      );
    });
  return {
    milliseconds: Math.round(timing.monotonic() - started),
    promptTokens: reply.usage?.promptTokens ?? 0,
  };
}
