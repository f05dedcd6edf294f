// The module's API, for the embedded language and speech adapters and `npm run model:pull`;
// `@public`: types the adapters use, exported before their code lands.
/** @public */
export type { DownloadEvent, ProgressSink, ProgressStream } from './download-progress';
export { progressTo } from './download-progress';
export {
  type EmbeddedModelReference,
  embeddedModelReference,
  embeddedModelServer,
  embeddedModels,
} from './embedded-model-references';
/** @public */
export type { EnsureModelFileOptions } from './ensure-model-file';
export { ensureModelFile } from './ensure-model-file';
/** @public */
export type { HubFile, ModelFileFormat } from './hub-file';
export { hubReference } from './hub-file';
/** @public */
export type { CacheHost, ModelCacheSettings } from './model-cache-settings';
export { ModelCacheSettingsError, readModelCacheSettings } from './model-cache-settings';
export {
  ModelCacheUnwritableError,
  ModelChecksumError,
  ModelDiskFullError,
  ModelDownloadError,
  ModelFileError,
  ModelNotFoundError,
  NotAModelFileError,
} from './model-file-errors';
export {
  parseModelFolderReference,
  resolveModelFolder,
} from './model-folder';
export { type ModelReference, ModelReferenceError, parseModelReference } from './model-reference';
/** @public */
export type { PinnedModel } from './pinned-models';
export { DEFAULT_SPEECH_MODELS, PINNED_MODELS, PINNED_MOONSHINE } from './pinned-models';
export { resolveModelFile } from './resolve-model-file';
