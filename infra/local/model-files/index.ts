export {
  type DownloadEvent,
  type ProgressSink,
  type ProgressStream,
  progressTo,
} from './download-progress';
export { type EnsureModelFileOptions, ensureModelFile } from './ensure-model-file';
export { cachedModelPath, type HubFile, hubFileUrl, type ModelFileFormat } from './hub-file';
export { formatBytes, formatDuration } from './human-units';
export {
  type CacheHost,
  type ModelCacheSettings,
  ModelCacheSettingsError,
  readModelCacheSettings,
} from './model-cache-settings';
export {
  ModelChecksumError,
  ModelDiskFullError,
  ModelDownloadError,
  ModelFileError,
  ModelNotFoundError,
  NotAModelFileError,
} from './model-file-errors';
export { type ModelReference, ModelReferenceError, parseModelReference } from './model-reference';
export { PINNED_MODELS, type PinnedModel } from './pinned-models';
export { resolveModelFile } from './resolve-model-file';
