/**
 * `npm run model:pull`: fetches the embedded models `npm start` would fetch on first use, ahead
 * of time (before a flight, onto a machine that will go offline, into a CI cache). It reads the
 * settings `npm start` reads: LLM_MODEL and STT_MODEL (an hf: reference, a path, or none; unset:
 * the pinned defaults), STT_ENGINE (which engine's model STT_MODEL names), OPENAI_BASE_URL and
 * STT_BASE_URL (a server instead: nothing to fetch), MODEL_CACHE_DIR and HF_ENDPOINT.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_MOONSHINE_MODEL, localMoonshineModel } from '../local/local-moonshine-model';
import { LocalSettingsError, readSpeechEngine } from '../local/local-settings';
import {
  type HubFile,
  ModelCacheSettingsError,
  ModelFileError,
  type ModelFileFormat,
  type ModelReference,
  ModelReferenceError,
  PINNED_MODELS,
  parseModelReference,
  progressTo,
  readModelCacheSettings,
  resolveModelFile,
} from '../local/model-files';

const usage = `Usage: npm run model:pull [-- --help]

Downloads the models npm start runs on this machine, once, into the model cache, so the
first start needs no network:
  language model  LLM_MODEL, default hf:${PINNED_MODELS.language.repo}/${PINNED_MODELS.language.file}
                  (skipped when OPENAI_BASE_URL names a model server)
  speech model    STT_MODEL, default ${DEFAULT_MOONSHINE_MODEL} (five files),
                  or with STT_ENGINE=whisper hf:${PINNED_MODELS.speech.repo}/${PINNED_MODELS.speech.file}
                  (skipped when STT_BASE_URL names a speech server)
Each is hf:<user>/<repo>/<file>, a path to a model file, or none; for STT_ENGINE=sherpa (the
default) STT_MODEL is hf:<user>/<repo>[/<folder>] or a folder holding the model's files.
MODEL_CACHE_DIR sets the cache folder, HF_ENDPOINT a mirror of the hub.
See docs/models.md.`;

interface PulledModel {
  readonly label: string;
  readonly setting: string;
  readonly serverSetting: string;
  readonly pinned: HubFile;
  /** Null: either format (whisper.cpp reads ggml files, and some newer GGUF ones). */
  readonly format: ModelFileFormat | null;
}

const models: readonly PulledModel[] = [
  {
    label: 'language model',
    setting: 'LLM_MODEL',
    serverSetting: 'OPENAI_BASE_URL',
    pinned: PINNED_MODELS.language,
    format: 'gguf',
  },
  {
    label: 'speech model',
    setting: 'STT_MODEL',
    serverSetting: 'STT_BASE_URL',
    pinned: PINNED_MODELS.speech,
    format: null,
  },
];

try {
  const { values } = parseArgs({ options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
} catch (error) {
  console.error(`${(error as Error).message}\n\n${usage}`);
  process.exit(2);
}

try {
  const settings = readModelCacheSettings(process.env);
  const progress = progressTo(process.stderr);
  for (const model of models) {
    const bedrock =
      model.setting === 'LLM_MODEL' && process.env.MODEL_PROVIDER?.trim() === 'bedrock';
    if (bedrock) {
      console.log(
        `${model.label}: MODEL_PROVIDER=bedrock, npm start uses Bedrock; nothing to fetch`,
      );
      continue;
    }
    if (process.env[model.serverSetting]?.trim()) {
      console.log(
        `${model.label}: ${model.serverSetting} is set, npm start uses that server; nothing to fetch`,
      );
      continue;
    }
    if (model.setting === 'STT_MODEL' && readSpeechEngine(process.env) === 'sherpa') {
      const moonshine = await localMoonshineModel(process.env, progress);
      console.log(`${model.label}: ${moonshine?.folder ?? `none (${model.setting}=none)`}`);
      continue;
    }
    const named = process.env[model.setting];
    const reference: ModelReference =
      named === undefined || named.trim() === ''
        ? { kind: 'hub', file: model.pinned }
        : parseModelReference(named, model.setting);
    const path = await resolveModelFile(reference, settings, { progress, format: model.format });
    console.log(`${model.label}: ${path ?? `none (${model.setting}=none)`}`);
  }
} catch (error) {
  if (
    error instanceof ModelFileError ||
    error instanceof ModelReferenceError ||
    error instanceof ModelCacheSettingsError ||
    error instanceof LocalSettingsError
  ) {
    console.error(`model:pull: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
