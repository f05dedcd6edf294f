import { createHash } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { systemTiming, type Timing } from '../../../shared/adapters/system/timing';
import { acquireCacheLock } from './cache-lock';
import { type DownloadOptions, HubDownload } from './hub-download';
import {
  cachedModelPath,
  type HubFile,
  hubFileName,
  hubFileProblem,
  hubFileUrl,
  hubReference,
} from './hub-file';
import type { ModelCacheSettings } from './model-cache-settings';
import { writingInto } from './model-file-errors';
import { ModelReferenceError } from './model-reference';
import { hashFile, isVerified, writeRecord } from './verified-record';

export interface EnsureModelFileOptions extends DownloadOptions {
  /**
   * The clock of every wait (for bytes, between tries, for another download's lock). Tests pass
   * a FakeTiming with `instantSleeps: false`: with instant sleeps every wait for bytes would be
   * over at once.
   */
  readonly timing?: Timing;
}

/**
 * The absolute path of the file in the cache, downloaded first if it is not there yet (once:
 * a cached file costs no request). The download goes to a `.partial` file beside it, resumes
 * with `Range` after a cut connection, is hashed as it streams, checked against the pinned
 * SHA-256 (else the one the hub publishes in `X-Linked-Etag`) and the format's magic bytes, and
 * only then renamed into place; a bad file is deleted.
 */
export async function ensureModelFile(
  file: HubFile,
  settings: ModelCacheSettings,
  options: EnsureModelFileOptions = {},
): Promise<string> {
  const problem = hubFileProblem(file);
  if (problem !== null) throw new ModelReferenceError(hubReference(file), problem, undefined);
  const target = cachedModelPath(settings.cacheDir, file);
  if (await isVerified(target, file)) return target;
  const timing = options.timing ?? systemTiming;
  const lock = await writingInto(dirname(target), async () => {
    await mkdir(dirname(target), { recursive: true });
    return acquireCacheLock(`${target}.lock`, {
      timing,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onWait: (holder) =>
        options.progress?.report({
          kind: 'waiting',
          name: hubFileName(file),
          holder,
          atMs: timing.monotonic(),
        }),
    });
  });
  try {
    if (await isVerified(target, file)) return target;
    if (await adoptCopiedFile(target, file, hubFileUrl(settings.endpoint, file))) return target;
    await new HubDownload(file, target, settings, options, timing).run();
    return target;
  } finally {
    await lock.release();
  }
}

/**
 * A pinned file copied into the cache by hand (an air-gapped machine) is hashed once instead of
 * downloaded; a copy that does not match is replaced.
 */
async function adoptCopiedFile(target: string, file: HubFile, url: string): Promise<boolean> {
  if (file.sha256 === undefined) return false;
  const size = await stat(target).then(
    (stats) => stats.size,
    () => null,
  );
  if (size === null) return false;
  if (file.sizeBytes === undefined || size === file.sizeBytes) {
    const hash = createHash('sha256');
    await hashFile(target, hash);
    if (hash.digest('hex') === file.sha256) {
      await writeRecord(target, { sha256: file.sha256, sizeBytes: size, url });
      return true;
    }
  }
  await rm(target, { force: true });
  return false;
}
