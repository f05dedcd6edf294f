import { resolve } from 'node:path';
import { type EnsureModelFileOptions, ensureModelFile } from './ensure-model-file';
import { formatOfName } from './hub-file';
import type { ModelCacheSettings } from './model-cache-settings';
import { NotAModelFileError } from './model-file-errors';
import { expectedFormatName, formatsOfFile, hasFormat } from './model-file-format';
import type { ModelReference } from './model-reference';

/**
 * The file a reference names, ready to load: a path on this machine once its first bytes show
 * the expected format (`options.format`, else the one its name says, else GGUF or ggml), a hub
 * file through the cache, and null for `none`.
 */
export async function resolveModelFile(
  reference: ModelReference,
  settings: ModelCacheSettings,
  options: EnsureModelFileOptions = {},
): Promise<string | null> {
  switch (reference.kind) {
    case 'none':
      return null;
    case 'hub':
      return ensureModelFile(reference.file, settings, options);
    case 'path': {
      const path = resolve(reference.path);
      const format = options.format === undefined ? formatOfName(path) : options.format;
      const formats = await formatsOfFile(path);
      if (!hasFormat(formats, format)) {
        throw new NotAModelFileError(path, expectedFormatName(format), false);
      }
      return path;
    }
  }
}
