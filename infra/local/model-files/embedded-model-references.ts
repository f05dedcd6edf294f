import { readSettings } from '../../../shared/adapters/config/read-settings';
import type { HubFile, ModelFileFormat } from './hub-file';
import { type ModelReference, parseModelReference } from './model-reference';
import { PINNED_MODELS } from './pinned-models';

/** The models npm start runs in its own process, in the order `npm run model:pull` fetches them. */
export const embeddedModels = ['language', 'speech'] as const;
export type EmbeddedModel = (typeof embeddedModels)[number];

/** One embedded model as the settings name it. */
export interface EmbeddedModelReference {
  /** As `npm run model:pull` announces it. */
  readonly label: string;
  readonly setting: 'LLM_MODEL' | 'STT_MODEL';
  /** The format the file must have; null: either (whisper.cpp reads ggml and some GGUF files). */
  readonly format: ModelFileFormat | null;
  /** The server that runs the model instead, in words; null: npm start runs `reference`. */
  readonly server: string | null;
  /** The setting's file (a pinned one with its pin) or the pinned default; null with a server. */
  readonly reference: ModelReference | null;
}

type Environment = Readonly<Record<string, string | undefined>>;

const described = {
  language: {
    label: 'language model',
    setting: 'LLM_MODEL',
    format: 'gguf',
    pinnedDefault: PINNED_MODELS.language,
  },
  speech: {
    label: 'speech model',
    setting: 'STT_MODEL',
    format: null,
    pinnedDefault: PINNED_MODELS.speech,
  },
} as const satisfies Record<
  EmbeddedModel,
  Omit<EmbeddedModelReference, 'server' | 'reference'> & { readonly pinnedDefault: HubFile }
>;

/**
 * The one place that decides which model file npm start runs, for local-model.ts,
 * local-speech.ts and `npm run model:pull`: none where a server runs the model (MODEL_PROVIDER=
 * bedrock or OPENAI_BASE_URL; STT_PROVIDER=transcribe or STT_BASE_URL), else the file LLM_MODEL or STT_MODEL names as
 * parseModelReference reads it (pins matched there), the pinned default when unset. Throws
 * ModelReferenceError for a setting that names no model.
 */
export function embeddedModelReference(
  env: Environment,
  model: EmbeddedModel,
): EmbeddedModelReference {
  const { pinnedDefault, ...description } = described[model];
  const server = embeddedModelServer(env, model);
  if (server !== null) return { ...description, server, reference: null };
  const { values, given } = readSettings(env);
  const text = given.has(description.setting) ? values[description.setting] : null;
  const reference: ModelReference = text
    ? parseModelReference(text, description.setting)
    : { kind: 'hub', file: pinnedDefault };
  return { ...description, server: null, reference };
}

/** The server that runs the model instead of npm start, in words; null: npm start runs it. */
export function embeddedModelServer(env: Environment, model: EmbeddedModel): string | null {
  // Set to anything, a server is meant: a value its check refuses is the configuration's to report.
  const { values, given } = readSettings(env);
  if (model === 'speech') {
    if (values.STT_PROVIDER === 'transcribe') {
      return 'STT_PROVIDER=transcribe, npm start uses Amazon Transcribe';
    }
    return given.has('STT_BASE_URL') ? 'STT_BASE_URL is set, npm start uses that server' : null;
  }
  if (values.MODEL_PROVIDER === 'bedrock') {
    return 'MODEL_PROVIDER=bedrock, npm start uses Bedrock';
  }
  return given.has('OPENAI_BASE_URL') ? 'OPENAI_BASE_URL is set, npm start uses that server' : null;
}
