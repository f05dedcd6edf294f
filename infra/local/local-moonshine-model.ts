import { join } from 'node:path';
import { readSettings } from '../../shared/adapters/config/read-settings';
import {
  MOONSHINE_FILE_NAMES,
  type MoonshineModelFiles,
} from '../../shared/adapters/speech/recognizer-engines';
import {
  PINNED_MOONSHINE,
  type ProgressSink,
  parseModelFolderReference,
  readModelCacheSettings,
  resolveModelFolder,
} from './model-files';

/** The folder STT_MODEL names for sherpa-onnx when it names none: Moonshine tiny, int8, pinned. */
export const DEFAULT_MOONSHINE_MODEL = `hf:${PINNED_MOONSHINE[0]?.repo}`;

/**
 * The Moonshine model STT_MODEL names for the sherpa-onnx engine: `hf:<user>/<repo>` (its five
 * files at the repository's root, by their published names), `hf:<user>/<repo>/<folder>`, a
 * folder on this machine holding them, or `none` (null); unset, the pinned Moonshine tiny. Hub
 * files are fetched into the model cache once, each checked against its pin (else the hub's
 * published digest).
 */
export async function localMoonshineModel(
  env: NodeJS.ProcessEnv,
  progress: ProgressSink,
): Promise<{ folder: string; files: MoonshineModelFiles } | null> {
  const { values, given } = readSettings(env);
  const reference = parseModelFolderReference(
    (given.has('STT_MODEL') ? values.STT_MODEL : null) ?? DEFAULT_MOONSHINE_MODEL,
    'STT_MODEL',
  );
  const folder = await resolveModelFolder(
    reference,
    Object.values(MOONSHINE_FILE_NAMES),
    PINNED_MOONSHINE,
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
    folder,
    files: {
      preprocessor: inFolder(MOONSHINE_FILE_NAMES.preprocessor),
      encoder: inFolder(MOONSHINE_FILE_NAMES.encoder),
      uncachedDecoder: inFolder(MOONSHINE_FILE_NAMES.uncachedDecoder),
      cachedDecoder: inFolder(MOONSHINE_FILE_NAMES.cachedDecoder),
      tokens: inFolder(MOONSHINE_FILE_NAMES.tokens),
    },
  };
}
