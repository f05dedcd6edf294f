import { formatBytes } from './human-units';

/**
 * Every failure to provide a model file: one line saying what happened and what to do, never a
 * stack trace for the person starting the stack.
 */
export abstract class ModelFileError extends Error {}

/** The hub or its mirror could not be reached, refused, stalled or sent more than announced. */
export class ModelDownloadError extends ModelFileError {
  override readonly name = 'ModelDownloadError';
  constructor(
    readonly url: string,
    readonly reason: string,
    readonly remedy: string,
    options?: { cause?: unknown },
  ) {
    super(
      `could not download ${url}: ${reason}. ${remedy}, or set HF_ENDPOINT to a mirror that serves it`,
      options,
    );
  }
}

/** The hub has no such file (404). */
export class ModelNotFoundError extends ModelFileError {
  override readonly name = 'ModelNotFoundError';
  constructor(
    readonly url: string,
    readonly reference: string,
  ) {
    super(
      `${url} answered 404: the hub has no file ${reference}; check the repository and the file's path in it (the hub's "Files" tab shows both)`,
    );
  }
}

/** Not enough room in the cache folder for the download. */
export class ModelDiskFullError extends ModelFileError {
  override readonly name = 'ModelDiskFullError';
  constructor(
    readonly directory: string,
    readonly neededBytes: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `the disk holding ${directory} is full${neededBytes === undefined ? '' : `: the download needs ${formatBytes(neededBytes)} there`}; free some space, or set MODEL_CACHE_DIR to a folder on a disk with room`,
      options,
    );
  }
}

/** The file's SHA-256 is not the one expected: the file is deleted, never loaded. */
export class ModelChecksumError extends ModelFileError {
  override readonly name = 'ModelChecksumError';
  constructor(
    readonly fileName: string,
    readonly expected: string,
    readonly actual: string,
    readonly stage: 'announced' | 'downloaded',
  ) {
    super(
      stage === 'downloaded'
        ? `${fileName} does not match its SHA-256 (expected ${expected}, got ${actual}): the download was deleted and nothing was loaded; run again, and if it fails again, check what HF_ENDPOINT serves`
        : `the hub announces a different ${fileName} than the pinned one (SHA-256 ${actual}, pinned ${expected}): nothing was downloaded; check what HF_ENDPOINT serves, or name a file of your own by its path`,
    );
  }
}

/** The file does not start with the magic bytes of a GGUF or whisper.cpp ggml model. */
export class NotAModelFileError extends ModelFileError {
  override readonly name = 'NotAModelFileError';
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly deleted: boolean,
  ) {
    const format = `${/^[AEIOU]/i.test(expected) ? 'an' : 'a'} ${expected}`;
    super(
      `${path} is not ${format} file (its first bytes are not the format's magic)${deleted ? ': it was deleted' : ''}; name ${format} file instead`,
    );
  }
}

/** The cache folder cannot be created or written (a file in its way, no permission, read-only). */
export class ModelCacheUnwritableError extends ModelFileError {
  override readonly name = 'ModelCacheUnwritableError';
  constructor(
    readonly directory: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(
      `cannot write model files into ${directory} (${code}); set MODEL_CACHE_DIR to a folder you can write`,
      options,
    );
  }
}

/** Failures of the file system that a person fixes by pointing the cache elsewhere. */
const unwritableCodes = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST']);

/** `work` on the cache folder, its file system's refusals turned into one line to act on. */
export async function writingInto<T>(directory: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      throw new ModelDiskFullError(directory, undefined, { cause: error });
    }
    if (unwritableCodes.has(code)) {
      throw new ModelCacheUnwritableError(directory, code, { cause: error });
    }
    throw error;
  }
}
