/**
 * `npm run model:pull`: fetches the embedded models `npm start` would fetch on first use, ahead
 * of time (before a flight, onto a machine that will go offline, into a CI cache). It reads the
 * settings `npm start` reads: LLM_MODEL and STT_MODEL (an hf: reference, a path, or none; unset:
 * the pinned defaults), STT_ENGINE (which engine's model STT_MODEL names), OPENAI_BASE_URL and
 * STT_BASE_URL (a server instead: nothing to fetch), MODEL_CACHE_DIR and HF_ENDPOINT.
 */
import { parseArgs } from 'node:util';
import { LocalSettingsError } from '../local/local-settings';
import { localSpeechModel } from '../local/local-speech-model';
import {
  DEFAULT_SPEECH_MODELS,
  embeddedModelReference,
  embeddedModelServer,
  embeddedModels,
  hubReference,
  ModelCacheSettingsError,
  ModelFileError,
  ModelReferenceError,
  PINNED_MODELS,
  progressTo,
  readModelCacheSettings,
  resolveModelFile,
} from '../local/model-files';

const usage = `Usage: npm run model:pull [-- --help]

Downloads the models npm start runs on this machine, once, into the model cache, so the
first start needs no network:
  language model  LLM_MODEL, default ${hubReference(PINNED_MODELS.language)}
                  (skipped when OPENAI_BASE_URL names a model server)
  speech model    STT_MODEL, default ${DEFAULT_SPEECH_MODELS.sherpa} (five files),
                  or with STT_ENGINE=whisper ${DEFAULT_SPEECH_MODELS.whisper}
                  (skipped when STT_BASE_URL names a speech server)
Each is hf:<user>/<repo>/<file>, a path to a model file, or none; for STT_ENGINE=sherpa (the
default) STT_MODEL is hf:<user>/<repo>[/<folder>] or a folder holding the model's files.
MODEL_CACHE_DIR sets the cache folder, HF_ENDPOINT a mirror of the hub.
See docs/models.md.`;

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
  for (const model of embeddedModels) {
    // The speech model is the engine's (STT_ENGINE): npm start's own choice, read once.
    if (model === 'speech' && embeddedModelServer(process.env, model) === null) {
      const fetched = await localSpeechModel(process.env, progress);
      console.log(`speech model: ${fetched?.path ?? 'none (STT_MODEL=none)'}`);
      continue;
    }
    const { label, setting, format, server, reference } = embeddedModelReference(
      process.env,
      model,
    );
    if (reference === null) {
      console.log(`${label}: ${server}; nothing to fetch`);
      continue;
    }
    const path = await resolveModelFile(reference, settings, { progress, format });
    console.log(`${label}: ${path ?? `none (${setting}=none)`}`);
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
