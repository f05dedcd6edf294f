import { createHash, type Hash } from 'node:crypto';
import { type FileHandle, open, rename, rm, stat, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Timing } from '../../../shared/adapters/system/timing';
import type { ProgressSink } from './download-progress';
import {
  formatOfName,
  type HubFile,
  hubFileName,
  hubFileUrl,
  hubReference,
  isSpeechModelName,
  type ModelFileFormat,
} from './hub-file';
import type { ModelCacheSettings } from './model-cache-settings';
import {
  ModelChecksumError,
  ModelDiskFullError,
  ModelDownloadError,
  ModelNotFoundError,
  NotAModelFileError,
  writingInto,
} from './model-file-errors';
import { expectedFormatName, formatsOfFile, hasFormat } from './model-file-format';
import { hashFile, writeRecord } from './verified-record';

/** How a download behaves; `ensureModelFile` adds the clock. */
export interface DownloadOptions {
  readonly progress?: ProgressSink;
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
  /** No byte for this long and the server has stalled. Default 30 s. */
  readonly stallTimeoutMs?: number;
  /** Tries per download; each one after a cut connection resumes where it stopped. Default 4. */
  readonly attempts?: number;
  /** The format the file must have; by default the one its name says (`.gguf`, `.bin`). */
  readonly format?: ModelFileFormat | null;
  /** What a person who cannot download can do instead: a local file, a remote server. */
  readonly remedy?: string;
}

const defaultStallTimeoutMs = 30_000;
const defaultAttempts = 4;
const maxRedirects = 5;
const sha256Hex = /^[0-9a-f]{64}$/;

/** A failure another try may get past: a cut connection, a stall, a busy server. */
class TryAgain extends Error {
  override readonly name = 'TryAgain';
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

const stalled = Symbol('stalled');

/** `work`, unless no answer comes within `ms`: then `stalled` (and `work` is left to fail quietly). */
async function withinStallTimeout<T>(
  work: Promise<T>,
  ms: number,
  timing: Timing,
): Promise<T | typeof stalled> {
  work.catch(() => undefined);
  const timer = new AbortController();
  const timeout = timing.sleep(ms, timer.signal).then(
    (): typeof stalled => stalled,
    () => new Promise<never>(() => undefined),
  );
  try {
    return await Promise.race([work, timeout]);
  } finally {
    timer.abort();
  }
}

/** Failures no second try within seconds gets past: no network, no such host, nobody listening. */
const unreachableCodes = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

function errorCode(error: unknown): string | undefined {
  return (error as { cause?: { code?: string } }).cause?.code;
}

function networkReason(error: unknown, url: string): string {
  const host = new URL(url).host;
  const code = errorCode(error);
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${host} could not be found (${code}: no network, or no such host)`;
    case 'ECONNREFUSED':
      return `${host} refused the connection (${code})`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `the connection to ${host} was cut (${code})`;
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return `${host} could not be reached (${code}: no network?)`;
    default: {
      const cause = (error as { cause?: { message?: string } }).cause;
      return `the connection to ${host} failed (${code ?? cause?.message ?? (error as Error).message})`;
    }
  }
}

function defaultRemedy(fileName: string): string {
  return isSpeechModelName(fileName)
    ? 'Use a file on this machine instead (STT_MODEL=/path/ggml-model.bin) or a speech server (STT_BASE_URL=...)'
    : 'Use a file on this machine instead (LLM_MODEL=/path/model.gguf) or a model server (OPENAI_BASE_URL=...)';
}

/** The hub's `X-Linked-Etag` is the LFS object's SHA-256, quoted (sometimes weak: `W/"..."`). */
function linkedSha256(header: string | null): string | undefined {
  const value = header?.replace(/^W\//, '').replaceAll('"', '').trim().toLowerCase();
  return value !== undefined && sha256Hex.test(value) ? value : undefined;
}

function byteCount(header: string | null): number | undefined {
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  const value = Number(header.trim());
  return Number.isSafeInteger(value) ? value : undefined;
}

interface Opened {
  readonly response: Response;
  readonly publishedSha256: string | undefined;
  readonly publishedSize: number | undefined;
}

/**
 * One file from the hub into the cache: to `<file>.partial`, resumed with `Range` after a cut
 * connection (a few tries), hashed as it streams, checked (digest, then magic bytes), recorded,
 * then renamed into place. The caller holds the cache lock.
 */
export class HubDownload {
  readonly #name: string;
  readonly #url: string;
  readonly #partial: string;
  readonly #directory: string;
  readonly #format: ModelFileFormat | null;
  readonly #remedy: string;
  readonly #fetch: typeof fetch;
  readonly #stallMs: number;
  #announced = false;

  constructor(
    private readonly file: HubFile,
    private readonly target: string,
    settings: ModelCacheSettings,
    private readonly options: DownloadOptions,
    private readonly timing: Timing,
  ) {
    this.#name = hubFileName(file);
    this.#url = hubFileUrl(settings.endpoint, file);
    this.#partial = `${target}.partial`;
    this.#directory = dirname(target);
    this.#format = options.format === undefined ? formatOfName(file.file) : options.format;
    this.#remedy = options.remedy ?? defaultRemedy(file.file);
    this.#fetch = options.fetch ?? fetch;
    this.#stallMs = options.stallTimeoutMs ?? defaultStallTimeoutMs;
  }

  async run(): Promise<void> {
    const attempts = Math.max(1, this.options.attempts ?? defaultAttempts);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.#attempt(attempt < attempts);
        return;
      } catch (error) {
        if (!(error instanceof TryAgain)) throw error;
        if (attempt >= attempts) {
          throw new ModelDownloadError(this.#url, error.reason, this.#remedy, { cause: error });
        }
        this.options.progress?.report({
          kind: 'retrying',
          name: this.#name,
          reason: error.reason,
          atMs: this.timing.monotonic(),
        });
        await this.timing.sleep(1000 * attempt, this.options.signal);
      }
    }
  }

  async #partialSize(): Promise<number> {
    return stat(this.#partial).then(
      (stats) => stats.size,
      () => 0,
    );
  }

  async #attempt(mayTryAgain: boolean): Promise<void> {
    let offset = await this.#partialSize();
    if (this.file.sizeBytes !== undefined && offset > this.file.sizeBytes) {
      await rm(this.#partial, { force: true });
      offset = 0;
    }
    // A pinned size is known before any request: a full disk costs no connection.
    if (this.file.sizeBytes !== undefined) await this.#checkRoom(this.file.sizeBytes - offset);
    const abort = new AbortController();
    const signal =
      this.options.signal === undefined
        ? abort.signal
        : AbortSignal.any([abort.signal, this.options.signal]);
    const opened = await this.#open(offset, signal, abort);
    try {
      await this.#receive(opened, offset, signal, abort, mayTryAgain);
    } finally {
      abort.abort();
    }
  }

  /** The request, its redirects followed by hand so the hub's own headers can be read. */
  async #open(offset: number, signal: AbortSignal, abort: AbortController): Promise<Opened> {
    let url = this.#url;
    let publishedSha256: string | undefined;
    let publishedSize: number | undefined;
    for (let hop = 0; hop <= maxRedirects; hop += 1) {
      const headers: Record<string, string> = {
        'user-agent': 'jcc-serverless model-files',
        // Byte ranges and digests are of the file itself, never of a compressed transfer.
        'accept-encoding': 'identity',
      };
      if (offset > 0) headers.range = `bytes=${offset}-`;
      let response: Response | typeof stalled;
      try {
        response = await withinStallTimeout(
          this.#fetch(url, { redirect: 'manual', headers, signal }),
          this.#stallMs,
          this.timing,
        );
      } catch (error) {
        this.options.signal?.throwIfAborted();
        const reason = networkReason(error, url);
        if (unreachableCodes.has(errorCode(error) ?? '')) {
          throw new ModelDownloadError(this.#url, reason, this.#remedy, { cause: error });
        }
        throw new TryAgain(reason, { cause: error });
      }
      if (response === stalled) {
        abort.abort();
        throw new TryAgain(`no answer from ${new URL(url).host} for ${this.#stallMs / 1000} s`);
      }
      publishedSha256 ??= linkedSha256(response.headers.get('x-linked-etag'));
      publishedSize ??= byteCount(response.headers.get('x-linked-size'));
      // The hub's redirect says which file its CDN would send: a different one is not fetched.
      const pinned = this.file.sha256;
      if (pinned !== undefined && publishedSha256 !== undefined && publishedSha256 !== pinned) {
        await response.body?.cancel();
        throw new ModelChecksumError(this.#name, pinned, publishedSha256, 'announced');
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        url = new URL(location, url).href;
        continue;
      }
      return { response, publishedSha256, publishedSize };
    }
    throw new ModelDownloadError(this.#url, `more than ${maxRedirects} redirects`, this.#remedy);
  }

  async #refuse(response: Response): Promise<never> {
    await response.body?.cancel();
    const status = response.status;
    if (status === 404) {
      throw new ModelNotFoundError(this.#url, hubReference(this.file));
    }
    if (status === 408 || status === 429 || status >= 500) {
      throw new TryAgain(`the server answered ${status}`);
    }
    const why =
      status === 401 || status === 403
        ? `the hub refused it (${status}: a gated or private repository needs an account's token, which this download does not send)`
        : `the server answered ${status}`;
    throw new ModelDownloadError(this.#url, why, this.#remedy);
  }

  async #receive(
    opened: Opened,
    requestedOffset: number,
    signal: AbortSignal,
    abort: AbortController,
    mayTryAgain: boolean,
  ): Promise<void> {
    const { response } = opened;
    if (response.status === 416 && requestedOffset > 0) {
      // The partial file may already be whole: check it; otherwise start again.
      await response.body?.cancel();
      const size = this.file.sizeBytes ?? opened.publishedSize;
      if (size !== undefined && size === requestedOffset) {
        await this.#finish(
          requestedOffset,
          this.file.sha256 ?? opened.publishedSha256,
          mayTryAgain,
        );
        return;
      }
      await rm(this.#partial, { force: true });
      throw new TryAgain('the server could not resume the download');
    }
    if (response.status !== 200 && response.status !== 206) await this.#refuse(response);
    const expectedSha256 = this.file.sha256 ?? opened.publishedSha256;
    let offset = requestedOffset;
    let announcedTotal: number | undefined;
    if (response.status === 206) {
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(
        response.headers.get('content-range') ?? '',
      );
      if (range === null || Number(range[1]) !== requestedOffset) {
        await response.body?.cancel();
        await rm(this.#partial, { force: true });
        throw new TryAgain('the server resumed at another byte than asked');
      }
      announcedTotal = range[3] === '*' ? undefined : Number(range[3]);
    } else {
      // A 200 to a Range request: the server sends the whole file, so the partial one goes.
      offset = 0;
      announcedTotal = byteCount(response.headers.get('content-length'));
    }
    const totalBytes = this.file.sizeBytes ?? opened.publishedSize ?? announcedTotal;
    if (totalBytes !== undefined && announcedTotal !== undefined && announcedTotal !== totalBytes) {
      await response.body?.cancel();
      throw new ModelDownloadError(
        this.#url,
        `the server announces ${announcedTotal} bytes where ${totalBytes} were expected`,
        this.#remedy,
      );
    }
    if (totalBytes !== undefined) {
      await this.#checkRoom(totalBytes - offset).catch(async (error: unknown) => {
        await response.body?.cancel();
        throw error;
      });
    }
    this.options.progress?.report({
      kind: 'started',
      name: this.#name,
      url: this.#url,
      directory: this.#directory,
      totalBytes,
      resumedBytes: offset,
      atMs: this.timing.monotonic(),
    });
    this.#announced = true;
    const hash = createHash('sha256');
    if (offset > 0) await hashFile(this.#partial, hash);
    const output = await open(this.#partial, offset > 0 ? 'a' : 'w');
    let received = offset;
    try {
      received = await this.#stream(response, output, hash, offset, totalBytes, signal, abort);
    } finally {
      await output.close();
    }
    if (totalBytes !== undefined && received < totalBytes) {
      throw new TryAgain(`the connection closed at ${received} of ${totalBytes} bytes`);
    }
    await this.#finish(received, expectedSha256, mayTryAgain && offset > 0, hash);
  }

  async #checkRoom(neededBytes: number): Promise<void> {
    const room = await statfs(this.#directory).then(
      (stats) => stats.bavail * stats.bsize,
      () => Number.POSITIVE_INFINITY,
    );
    if (room < neededBytes) throw new ModelDiskFullError(this.#directory, neededBytes);
  }

  async #stream(
    response: Response,
    output: FileHandle,
    hash: Hash,
    offset: number,
    totalBytes: number | undefined,
    signal: AbortSignal,
    abort: AbortController,
  ): Promise<number> {
    if (response.body === null) return offset;
    const reader = response.body.getReader();
    let received = offset;
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>> | typeof stalled;
      try {
        next = await withinStallTimeout(reader.read(), this.#stallMs, this.timing);
      } catch (error) {
        this.options.signal?.throwIfAborted();
        const reason = networkReason(error, this.#url);
        throw new TryAgain(`the connection broke at ${received} bytes: ${reason}`, {
          cause: error,
        });
      }
      if (next === stalled) {
        abort.abort();
        throw new TryAgain(`no data for ${this.#stallMs / 1000} s at ${received} bytes`);
      }
      if (next.done) return received;
      const chunk = next.value;
      received += chunk.byteLength;
      if (totalBytes !== undefined && received > totalBytes) {
        await this.#discard(output, abort);
        throw new ModelDownloadError(
          this.#url,
          `the server sent more than the ${totalBytes} bytes announced`,
          this.#remedy,
        );
      }
      hash.update(chunk);
      try {
        await output.write(chunk);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOSPC' && code !== 'EDQUOT') throw error;
        await this.#discard(output, abort);
        throw new ModelDiskFullError(this.#directory, totalBytes, { cause: error });
      }
      this.options.progress?.report({
        kind: 'progress',
        name: this.#name,
        receivedBytes: received,
        totalBytes,
        atMs: this.timing.monotonic(),
      });
      if (signal.aborted) this.options.signal?.throwIfAborted();
    }
  }

  /** Ends the transfer and deletes the partial file, closed first (Windows keeps an open one). */
  async #discard(output: FileHandle, abort: AbortController): Promise<void> {
    abort.abort();
    await output.close().catch(() => undefined);
    await rm(this.#partial, { force: true });
  }

  /** Digest, then magic bytes, then the record, then the rename: a bad file never gets in. */
  async #finish(
    size: number,
    expectedSha256: string | undefined,
    wasResumed: boolean,
    streamedHash?: Hash,
  ): Promise<void> {
    let hash = streamedHash;
    if (hash === undefined) {
      hash = createHash('sha256');
      await hashFile(this.#partial, hash);
    }
    const actual = hash.digest('hex');
    if (expectedSha256 !== undefined && actual !== expectedSha256) {
      await rm(this.#partial, { force: true });
      // A partial file from an earlier run may hold other bytes: one fresh start settles it.
      if (wasResumed) throw new TryAgain('the resumed download did not match its SHA-256');
      throw new ModelChecksumError(this.#name, expectedSha256, actual, 'downloaded');
    }
    const formats = await formatsOfFile(this.#partial);
    if (!hasFormat(formats, this.#format)) {
      await rm(this.#partial, { force: true });
      throw new NotAModelFileError(this.#url, expectedFormatName(this.#format), true);
    }
    await writingInto(this.#directory, async () => {
      await writeRecord(this.target, { sha256: actual, sizeBytes: size, url: this.#url });
      await rename(this.#partial, this.target);
    });
    if (this.#announced) {
      this.options.progress?.report({
        kind: 'finished',
        name: this.#name,
        path: this.target,
        bytes: size,
        atMs: this.timing.monotonic(),
      });
    }
  }
}
