import { randomUUID } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { Timing } from '../../../shared/adapters/system/timing';

/** How often a start waiting for another's download looks again. */
const pollEveryMs = 500;

/** Held while one process downloads a file; `release` lets the next waiter in. */
export interface CacheLock {
  release(): Promise<void>;
}

/**
 * One download per file per cache: the lock file holds the holder's pid and host, written in
 * full before it appears (a hard link of a finished file), so a reader never sees it half
 * written. A lock whose process on this host is gone is taken over.
 */
export async function acquireCacheLock(
  lockPath: string,
  options: { timing: Timing; signal?: AbortSignal; onWait?: (holder: string) => void },
): Promise<CacheLock> {
  const owner = `pid ${process.pid} on ${hostname()}`;
  const draft = `${lockPath}.${randomUUID()}`;
  await writeFile(draft, owner);
  try {
    let toldWaiting = false;
    for (;;) {
      options.signal?.throwIfAborted();
      try {
        await link(draft, lockPath);
        return { release: () => unlink(lockPath).catch(() => undefined) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readFile(lockPath, 'utf8').catch(() => '');
      if (holder !== '' && holderIsGone(holder)) {
        await unlink(lockPath).catch(() => undefined);
        continue;
      }
      if (!toldWaiting) options.onWait?.(holder || 'another process');
      toldWaiting = true;
      await options.timing.sleep(pollEveryMs, options.signal);
    }
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/** Only a process on this host can be known to be gone; another host's lock is respected. */
function holderIsGone(holder: string): boolean {
  const match = /^pid (\d+) on (.*)$/.exec(holder);
  if (match === null) return true;
  if (match[2] !== hostname()) return false;
  try {
    process.kill(Number(match[1]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
