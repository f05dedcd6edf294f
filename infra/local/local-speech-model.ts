import { join } from 'node:path';
import { readSettings } from '../../shared/adapters/config/read-settings';
import {
  MOONSHINE_FILE_NAMES,
  type RecognizerModel,
} from '../../shared/adapters/speech/recognizer-engines';
import { readSpeechEngine } from './local-settings';
import {
  DEFAULT_SPEECH_MODELS,
  embeddedModelReference,
  type ProgressSink,
  parseModelFolderReference,
  readModelCacheSettings,
  resolveModelFile,
  resolveModelFolder,
} from './model-files';

/** The model npm start hears with, and where it is on this machine (a folder or a file). */
export interface LocalSpeechModel {
  readonly model: RecognizerModel;
  readonly path: string;
}

/**
 * The one place that reads which engine hears (STT_ENGINE) and fetches its model, for
 * local-speech.ts and `npm run model:pull`: the Moonshine folder STT_MODEL names for sherpa-onnx
 * (the default), or the whisper.cpp file it names (embedded-model-references.ts); null for
 * `none`. Asked only when no server hears instead (embeddedModelServer). Hub files are fetched
 * into the model cache once, each checked against its pin (else the hub's published digest).
 */
export async function localSpeechModel(
  env: NodeJS.ProcessEnv,
  progress: ProgressSink,
): Promise<LocalSpeechModel | null> {
  if (readSpeechEngine(env) === 'sherpa') return moonshineModel(env, progress);
  const { reference, format } = embeddedModelReference(env, 'speech');
  if (reference === null) return null;
  const path = await resolveModelFile(reference, readModelCacheSettings(env), {
    progress,
    format,
  });
  return path === null ? null : { model: { engine: 'whisper', path }, path };
}

/**
 * The Moonshine model STT_MODEL names for the sherpa-onnx engine: `hf:<user>/<repo>` (its five
 * files at the repository's root, by their published names), `hf:<user>/<repo>/<folder>`, a
 * folder on this machine holding them, or `none` (null); unset, the pinned Moonshine tiny.
 */
async function moonshineModel(
  env: NodeJS.ProcessEnv,
  progress: ProgressSink,
): Promise<LocalSpeechModel | null> {
  const { values, given } = readSettings(env);
  const reference = parseModelFolderReference(
    (given.has('STT_MODEL') ? values.STT_MODEL : null) ?? DEFAULT_SPEECH_MODELS.sherpa,
    'STT_MODEL',
  );
  const folder = await resolveModelFolder(
    reference,
    Object.values(MOONSHINE_FILE_NAMES),
    readModelCacheSettings(env),
    {
      progress,
      setting: 'STT_MODEL',
      remedy:
        'Use a folder on this machine instead (STT_MODEL=/path/to/folder) or a speech server (STT_BASE_URL=...)',
    },
  );
  if (folder === null) return null;
  const inFolder = (name: string) => join(folder, name);
  return {
    model: {
      engine: 'sherpa',
      moonshine: {
        preprocessor: inFolder(MOONSHINE_FILE_NAMES.preprocessor),
        encoder: inFolder(MOONSHINE_FILE_NAMES.encoder),
        uncachedDecoder: inFolder(MOONSHINE_FILE_NAMES.uncachedDecoder),
        cachedDecoder: inFolder(MOONSHINE_FILE_NAMES.cachedDecoder),
        tokens: inFolder(MOONSHINE_FILE_NAMES.tokens),
      },
    },
    path: folder,
  };
}
