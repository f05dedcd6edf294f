import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DownloadEvent,
  ensureModelFile,
  type HubFile,
  type ModelCacheSettings,
  ModelCacheUnwritableError,
  ModelChecksumError,
  ModelDiskFullError,
  ModelDownloadError,
  ModelNotFoundError,
  NotAModelFileError,
} from '../../../../infra/local/model-files';
import type { Timing } from '../../../../shared/adapters/system/timing';
import { FakeTiming } from '../../../support/fake-timing';
import { freePort } from '../../../support/free-port';
import { ggufBytes, sha256Of, startScriptedHubServer } from '../../../support/scripted-hub-server';
import { useLoopbackServer } from '../../../support/use-loopback-server';

const hub = useLoopbackServer('scripted hub', startScriptedHubServer);

const stallTimeoutMs = 30_000;

/**
 * The download's clock: a pause between tries or before looking at a lock again passes at once
 * (on the next turn of the event loop); a wait for bytes ends only when the test moves the clock.
 */
class DownloadTiming implements Timing {
  readonly clock = new FakeTiming({ instantSleeps: false });
  now = () => this.clock.now();
  monotonic = () => this.clock.monotonic();
  random = () => this.clock.random();
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms < stallTimeoutMs) return new Promise((resolve) => setImmediate(resolve));
    return this.clock.sleep(ms, signal);
  }
}

let cacheDir: string;
beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'model-cache-'));
});
afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

const settings = (): ModelCacheSettings => ({ cacheDir, endpoint: hub.endpoint });

function recorder() {
  const events: DownloadEvent[] = [];
  return { events, progress: { report: (event: DownloadEvent) => events.push(event) } };
}

const repo = 'acme/tiny-GGUF';
const name = 'tiny-Q4_K_M.gguf';
const folder = () => join(cacheDir, 'acme', 'tiny-GGUF');
const target = () => join(folder(), name);
const cdnRequests = () => hub.requests.filter((request) => request.path.startsWith('/cdn/'));
const pinned = (body: Buffer): HubFile => ({
  repo,
  file: name,
  sha256: sha256Of(body),
  sizeBytes: body.length,
});

describe('ensureModelFile', () => {
  it('downloads through the hub redirect once, checks the pinned digest, then serves the cache with no request', async () => {
    // Prepare
    const body = ggufBytes(300_000);
    hub.serve(repo, `sub/${name}`, { body });
    const file: HubFile = { ...pinned(body), file: `sub/${name}` };
    const { events, progress } = recorder();
    const timing = new DownloadTiming();

    // Act
    const path = await ensureModelFile(file, settings(), { progress, timing });
    const requestsAfterFirst = hub.requests.length;
    const again = await ensureModelFile(file, settings(), { progress, timing });

    // Assess
    expect(path).toBe(join(folder(), 'sub', name));
    expect(again).toBe(path);
    expect(await readFile(path)).toEqual(body);
    expect(hub.requests.map((request) => request.path)).toEqual([
      `/${repo}/resolve/main/sub/${name}`,
      `/cdn/${repo}/sub/${name}`,
    ]);
    expect(hub.requests.length).toBe(requestsAfterFirst);
    expect(events[0]).toMatchObject({ kind: 'started', totalBytes: body.length, resumedBytes: 0 });
    expect(events.at(-1)).toMatchObject({ kind: 'finished', path, bytes: body.length });
    expect((await readdir(join(folder(), 'sub'))).sort()).toEqual([name, `${name}.verified.json`]);
  });

  it('checks a file the user names against the digest the hub publishes in X-Linked-Etag, and asks no more once cached', async () => {
    // Prepare
    const body = ggufBytes(50_000);
    hub.serve(repo, name, { body });
    const timing = new DownloadTiming();

    // Act
    const path = await ensureModelFile({ repo, file: name }, settings(), { timing });
    const requestsAfterFirst = hub.requests.length;
    const again = await ensureModelFile({ repo, file: name }, settings(), { timing });

    // Assess
    expect(again).toBe(path);
    expect(hub.requests.length).toBe(requestsAfterFirst);
    expect(await readFile(path)).toEqual(body);
    const record = JSON.parse(await readFile(`${path}.verified.json`, 'utf8')) as object;
    expect(record).toMatchObject({ sha256: sha256Of(body), sizeBytes: body.length });
  });

  it('resumes with Range where a cut connection stopped, and the file comes out whole', async () => {
    // Prepare
    const body = ggufBytes(400_000);
    hub.serve(repo, name, { body });
    hub.misbehave({ kind: 'cut', afterBytes: 150_000 });
    const { events, progress } = recorder();

    // Act
    const path = await ensureModelFile(pinned(body), settings(), {
      progress,
      timing: new DownloadTiming(),
    });

    // Assess
    expect(await readFile(path)).toEqual(body);
    const cdn = cdnRequests();
    expect(cdn).toHaveLength(2);
    expect(cdn[0]?.range).toBeUndefined();
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(cdn[1]?.range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(150_000);
    expect(events.filter((event) => event.kind === 'retrying')).toHaveLength(1);
    expect(events.filter((event) => event.kind === 'started').at(-1)).toMatchObject({
      resumedBytes: resumedAt,
    });
  });

  describe('with the partial file an earlier run left behind', () => {
    const body = ggufBytes(200_000);
    it.each([
      {
        case: 'resumes it with Range',
        misbehaviour: null,
        partial: body.subarray(0, 120_000),
        ranges: ['bytes=120000-'],
      },
      {
        case: 'starts again when Range gets a 200',
        misbehaviour: { kind: 'ignore-range' },
        partial: Buffer.alloc(90_000, 9),
        ranges: ['bytes=90000-'],
      },
      {
        case: 'starts again when a 206 starts at 0',
        misbehaviour: { kind: 'range-from-start' },
        partial: body.subarray(0, 80_000),
        ranges: ['bytes=80000-', undefined],
      },
    ] as const)('$case', async ({ misbehaviour, partial, ranges }) => {
      // Prepare
      hub.serve(repo, name, { body });
      if (misbehaviour !== null) hub.misbehave(misbehaviour);
      await mkdir(folder(), { recursive: true });
      await writeFile(`${target()}.partial`, partial);

      // Act
      const path = await ensureModelFile(pinned(body), settings(), {
        timing: new DownloadTiming(),
      });

      // Assess
      expect(await readFile(path)).toEqual(body);
      expect(cdnRequests().map((request) => request.range)).toEqual(ranges);
    });
  });

  it('deletes a download whose digest is not the published one, and loads nothing', async () => {
    // Prepare
    const body = ggufBytes(100_000);
    hub.serve(repo, name, { body, publishedSha256: 'ab'.repeat(32) });

    // Act
    const failure = await ensureModelFile({ repo, file: name }, settings(), {
      timing: new DownloadTiming(),
    }).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(ModelChecksumError);
    expect((failure as Error).message).toContain('the download was deleted and nothing was loaded');
    expect(await readdir(folder())).toEqual([]);
  });

  it('downloads nothing when the hub announces another digest than the pinned one', async () => {
    // Prepare
    const body = ggufBytes(100_000);
    hub.serve(repo, name, { body });

    // Act
    const failure = await ensureModelFile(
      { ...pinned(body), sha256: 'cd'.repeat(32) },
      settings(),
      { timing: new DownloadTiming() },
    ).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(ModelChecksumError);
    expect((failure as Error).message).toContain('nothing was downloaded');
    expect(cdnRequests()).toEqual([]);
  });

  it('answers a 404 with the URL and what to check', async () => {
    // Act
    const failure = await ensureModelFile({ repo, file: 'missing.gguf' }, settings(), {
      timing: new DownloadTiming(),
    }).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(ModelNotFoundError);
    expect((failure as Error).message).toBe(
      `${hub.endpoint}/${repo}/resolve/main/missing.gguf answered 404: the hub has no file hf:${repo}/missing.gguf; check the repository and the file's path in it (the hub's "Files" tab shows both)`,
    );
  });

  it.each([
    [
      401,
      1,
      "the hub refused it (401: a gated or private repository needs an account's token, which this download does not send)",
    ],
    [
      403,
      1,
      "the hub refused it (403: a gated or private repository needs an account's token, which this download does not send)",
    ],
    [503, 3, 'the server answered 503'],
    [429, 3, 'the server answered 429'],
  ])(
    'answers a %i after %i request(s) with what happened and the ways around it',
    async (status, requests, reason) => {
      // Prepare
      hub.serve(repo, name, { body: ggufBytes(1000), status });

      // Act
      const failure = await ensureModelFile({ repo, file: name }, settings(), {
        timing: new DownloadTiming(),
        attempts: 3,
      }).catch((error: unknown) => error);

      // Assess
      expect(failure).toBeInstanceOf(ModelDownloadError);
      expect((failure as Error).message).toBe(
        `could not download ${hub.endpoint}/${repo}/resolve/main/${name}: ${reason}. Use a file on this machine instead (LLM_MODEL=/path/model.gguf) or a model server (OPENAI_BASE_URL=...), or set HF_ENDPOINT to a mirror that serves it`,
      );
      expect(hub.requests).toHaveLength(requests);
    },
  );

  it("fails at once when nobody listens, and tells a speech model's user about STT_MODEL and STT_BASE_URL", async () => {
    // Prepare: a port that was just free, so nothing listens on it.
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    const { events, progress } = recorder();

    // Act
    const failure = await ensureModelFile(
      { repo: 'ggerganov/whisper.cpp', file: 'ggml-base.en-q5_1.bin' },
      { cacheDir, endpoint },
      { progress, timing: new DownloadTiming() },
    ).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(ModelDownloadError);
    expect((failure as Error).message).toBe(
      `could not download ${endpoint}/ggerganov/whisper.cpp/resolve/main/ggml-base.en-q5_1.bin: 127.0.0.1:${port} refused the connection (ECONNREFUSED). Use a file on this machine instead (STT_MODEL=/path/ggml-model.bin) or a speech server (STT_BASE_URL=...), or set HF_ENDPOINT to a mirror that serves it`,
    );
    expect(events.filter((event) => event.kind === 'retrying')).toEqual([]);
  });

  it('deletes a file that is not a GGUF, even when its digest matches', async () => {
    // Prepare
    const body = Buffer.from('<html>the mirror answered with a web page</html>');
    hub.serve(repo, name, { body });

    // Act
    const failure = await ensureModelFile({ repo, file: name }, settings(), {
      timing: new DownloadTiming(),
    }).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(NotAModelFileError);
    expect((failure as Error).message).toContain('is not a GGUF model file');
    expect(await readdir(folder())).toEqual([]);
  });

  it('stops a server that stalls: no byte for the stall timeout is a clear error, the partial file kept to resume', async () => {
    // Prepare
    const body = ggufBytes(200_000);
    hub.serve(repo, name, { body });
    hub.misbehave({ kind: 'stall', afterBytes: 1000 });
    const timing = new DownloadTiming();
    let stalledAt: () => void = () => undefined;
    const firstBytes = new Promise<void>((resolve) => {
      stalledAt = resolve;
    });
    const progress = {
      report: (event: DownloadEvent) => {
        if (event.kind === 'progress' && event.receivedBytes >= 1000) stalledAt();
      },
    };

    // Act
    const download = ensureModelFile(pinned(body), settings(), {
      progress,
      timing,
      attempts: 1,
    }).catch((error: unknown) => error);
    await firstBytes;
    await timing.clock.sleeping();
    timing.clock.advance(stallTimeoutMs);
    const failure = await download;

    // Assess
    expect(failure).toBeInstanceOf(ModelDownloadError);
    expect((failure as Error).message).toBe(
      `could not download ${hub.endpoint}/${repo}/resolve/main/${name}: no data for 30 s at 1000 bytes. Use a file on this machine instead (LLM_MODEL=/path/model.gguf) or a model server (OPENAI_BASE_URL=...), or set HF_ENDPOINT to a mirror that serves it`,
    );
    expect((await stat(`${target()}.partial`)).size).toBe(1000);
  });

  it('stops a server that sends more than the size announced, and deletes what it sent', async () => {
    // Prepare
    const body = ggufBytes(100_000);
    hub.serve(repo, name, { body });
    hub.misbehave({ kind: 'extra-bytes', bytes: 5000 });

    // Act
    const failure = await ensureModelFile({ repo, file: name }, settings(), {
      timing: new DownloadTiming(),
    }).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(ModelDownloadError);
    expect((failure as Error).message).toContain(
      'the server sent more than the 100000 bytes announced',
    );
    expect(await readdir(folder())).toEqual([]);
  });

  it('lets two starts on one cache download the file once between them', async () => {
    // Prepare
    const body = ggufBytes(300_000);
    hub.serve(repo, name, { body });
    const timing = new DownloadTiming();

    // Act
    const paths = await Promise.all([
      ensureModelFile(pinned(body), settings(), { timing }),
      ensureModelFile(pinned(body), settings(), { timing }),
    ]);

    // Assess
    expect(paths).toEqual([target(), target()]);
    expect(cdnRequests()).toHaveLength(1);
    expect(await readFile(target())).toEqual(body);
    expect((await readdir(folder())).sort()).toEqual([name, `${name}.verified.json`]);
  });

  it('takes over the lock of a start that died, and waits for the lock of one still running', async () => {
    // Prepare
    const body = ggufBytes(100_000);
    hub.serve(repo, name, { body });
    await mkdir(folder(), { recursive: true });
    const lock = `${target()}.lock`;
    // A pid above the kernel's pid_max (2^22) belongs to no process.
    await writeFile(lock, `pid 4194305 on ${hostname()}`);
    const { events, progress } = recorder();

    // Act
    const afterDeadStart = await ensureModelFile(pinned(body), settings(), {
      progress,
      timing: new DownloadTiming(),
    });
    await rm(target());
    await writeFile(lock, `pid ${process.pid} on ${hostname()}`);
    const waiting = ensureModelFile(pinned(body), settings(), {
      progress,
      timing: new DownloadTiming(),
    });
    while (!events.some((event) => event.kind === 'waiting')) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const requestsWhileWaiting = cdnRequests().length;
    await rm(lock);
    const afterLiveStart = await waiting;

    // Assess
    expect(afterDeadStart).toBe(target());
    expect(requestsWhileWaiting).toBe(1);
    expect(events.find((event) => event.kind === 'waiting')).toMatchObject({
      holder: `pid ${process.pid} on ${hostname()}`,
    });
    expect(afterLiveStart).toBe(target());
    expect(cdnRequests()).toHaveLength(2);
    expect(await readdir(folder())).not.toContain(`${name}.lock`);
  });

  it('says the cache folder cannot be written, and how to move it, when a file stands in its way', async () => {
    // Prepare
    const body = ggufBytes(10_000);
    hub.serve(repo, name, { body });
    const inTheWay = join(cacheDir, 'not-a-folder');
    await writeFile(inTheWay, 'a file');

    // Act
    const failure = await ensureModelFile(
      pinned(body),
      { cacheDir: join(inTheWay, 'models'), endpoint: hub.endpoint },
      { timing: new DownloadTiming() },
    ).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(ModelCacheUnwritableError);
    expect((failure as Error).message).toBe(
      `cannot write model files into ${join(inTheWay, 'models', 'acme', 'tiny-GGUF')} (ENOTDIR); set MODEL_CACHE_DIR to a folder you can write`,
    );
    expect(hub.requests).toEqual([]);
  });

  it('hashes a pinned file copied into the cache by hand instead of downloading it', async () => {
    // Prepare
    const body = ggufBytes(100_000);
    await mkdir(folder(), { recursive: true });
    await writeFile(target(), body);

    // Act
    const path = await ensureModelFile(pinned(body), settings(), { timing: new DownloadTiming() });

    // Assess
    expect(path).toBe(target());
    expect(hub.requests).toEqual([]);
  });
});

/** A 1 MB tmpfs as the cache when this machine lets us mount one (root); null otherwise. */
async function smallDisk(): Promise<string | null> {
  const mountPoint = await mkdtemp(join(tmpdir(), 'small-disk-'));
  try {
    execFileSync('/usr/bin/mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint], {
      stdio: 'ignore',
    });
    return mountPoint;
  } catch {
    await rm(mountPoint, { recursive: true, force: true });
    return null;
  }
}

async function unmount(mountPoint: string): Promise<void> {
  execFileSync('/usr/bin/umount', [mountPoint]);
  await rm(mountPoint, { recursive: true, force: true });
}

describe('ensureModelFile on a full disk', () => {
  it('says how much room a pinned file needs, and where, before it asks the hub for a byte', async () => {
    // Prepare
    const body = ggufBytes(2_000_000);
    hub.serve(repo, name, { body });
    const disk = await smallDisk();
    // Without a small disk to mount, a pinned size of a petabyte is more than any disk has.
    const file = disk === null ? { ...pinned(body), sizeBytes: 10 ** 15 } : pinned(body);
    const cache = disk ?? cacheDir;

    // Act
    const failure = await ensureModelFile(
      file,
      { cacheDir: cache, endpoint: hub.endpoint },
      {
        timing: new DownloadTiming(),
      },
    )
      .catch((error: unknown) => error)
      .finally(async () => {
        if (disk !== null) await unmount(disk);
      });

    // Assess
    expect(failure).toBeInstanceOf(ModelDiskFullError);
    expect(hub.requests).toEqual([]);
    expect((failure as Error).message).toBe(
      `the disk holding ${join(cache, 'acme', 'tiny-GGUF')} is full: the download needs ${disk === null ? '1000 TB' : '2.0 MB'} there; free some space, or set MODEL_CACHE_DIR to a folder on a disk with room`,
    );
  });

  it('turns a write that finds the disk full into the same error, and leaves no partial file', async () => {
    // Prepare: a file of no announced size, so only the write can find the disk full.
    const body = ggufBytes(2_000_000);
    hub.serve(repo, name, { body, publishesSize: false });
    hub.misbehave({ kind: 'no-length' });
    const disk = await smallDisk();
    const cache = disk ?? cacheDir;
    const partial = join(cache, 'acme', 'tiny-GGUF', `${name}.partial`);
    if (disk === null) {
      // No mount here: the kernel's /dev/full answers every write with a real ENOSPC.
      await mkdir(dirname(partial), { recursive: true });
      await symlink('/dev/full', partial);
    }

    // Act
    const failure = await ensureModelFile(
      { repo, file: name },
      { cacheDir: cache, endpoint: hub.endpoint },
      {
        timing: new DownloadTiming(),
      },
    )
      .catch((error: unknown) => error)
      .finally(async () => {
        if (disk !== null) await unmount(disk);
      });

    // Assess
    expect(failure).toBeInstanceOf(ModelDiskFullError);
    expect((failure as Error).message).toContain(`the disk holding ${dirname(partial)} is full`);
    expect((failure as { cause?: { code?: string } }).cause?.code).toBe('ENOSPC');
  });
});
