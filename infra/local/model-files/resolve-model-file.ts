import { resolve } from 'node:path';
import { type EnsureModelFileOptions, ensureModelFile } from './ensure-model-file';
import { formatOfName, type ModelFileFormat } from './hub-file';
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
      await checkModelFileFormat(
        path,
        options.format === undefined ? formatOfName(path) : options.format,
      );
      return path;
    }
  }
}

/**
 * A file on this machine is loaded only once its first bytes show `format` (null: GGUF or ggml);
 * else NotAModelFileError, which names the file and what it should have been.
 */
export async function checkModelFileFormat(
  path: string,
  format: ModelFileFormat | null,
): Promise<void> {
  if (!hasFormat(await formatsOfFile(path), format)) {
    throw new NotAModelFileError(path, expectedFormatName(format), false);
  }
}
