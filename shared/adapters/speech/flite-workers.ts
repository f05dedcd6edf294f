/**
 * LOCAL ONLY (`npm start`): the threads the embedded synthesizer speaks on. Never imported by a
 * handler (the local stack hands the synthesizer over through functions/wiring/npm-start-provisions.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PcmFormat } from '../../ports/speech';
import type { FlitePieceReply, FliteWorkerSetup } from './flite-protocol';

/** A piece that was not spoken: Flite failed on it, or its thread ended. */
export class FlitePieceError extends Error {
  override readonly name = 'FlitePieceError';
}

/** A piece stopped before its end: the caller's signal aborted (its deadline, a client gone). */
export class FlitePieceAbortedError extends Error {
  override readonly name = 'FlitePieceAbortedError';
}

export interface SpokenPiece {
  readonly format: PcmFormat;
  readonly pcm: Uint8Array;
}

let workDirectory: string | null = null;

/** `jcc-flite-<pid>-<random>`: the process a work directory belongs to is in its name. */
const DIRECTORY_PREFIX = 'jcc-flite-';
const OWNED_DIRECTORY = /^jcc-flite-(\d+)-/;

/**
 * The directory Flite writes into: made on the first piece (not when `npm start` starts), and
 * removed, with anything a stopped thread left in it, when the process exits. A process killed
 * by a signal runs no exit handler (SIGKILL, a closed terminal's SIGHUP, a test runner ending its
 * workers): the directories of processes that are gone are removed when the next one is made.
 */
function directory(): string {
  if (workDirectory !== null) return workDirectory;
  removeAbandonedDirectories(tmpdir());
  const made = mkdtempSync(join(tmpdir(), `${DIRECTORY_PREFIX}${process.pid}-`));
  workDirectory = made;
  process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  return made;
}

/** Removes the work directories in `parent` whose process no longer runs. */
function removeAbandonedDirectories(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent).filter((name) => name.startsWith(DIRECTORY_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(OWNED_DIRECTORY.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid || processRuns(pid)) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
    } catch {
      // Another process removing it too, or not ours to remove: it stays, as before.
    }
  }
}

/** Whether process `pid` exists (signal 0 checks without sending; EPERM: it runs as another user). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** One thread, speaking one piece at a time; a piece stopped midway ends the thread. */
export class FliteThread {
  readonly #worker: Worker;
  #alive = true;
  #pending: ((reply: FlitePieceReply) => void) | null = null;

  constructor(module: unknown) {
    const workerData: FliteWorkerSetup = { module, directory: directory() };
    // Only npm start and the tests run it, from the sources: the TypeScript file through tsx.
    this.#worker = new Worker(new URL('./flite-worker.ts', import.meta.url), {
      workerData,
      execArgv: ['--import', 'tsx'],
    });
    this.#worker.unref();
    this.#worker.on('message', (reply: FlitePieceReply) => this.#settle(reply));
    this.#worker.on('error', (error) => this.#end(`the synthesizer thread failed: ${error}`));
    this.#worker.on('exit', (code) => this.#end(`the synthesizer thread exited (${code})`));
  }

  get alive(): boolean {
    return this.#alive;
  }

  /** Speaks `text`; aborting `signal` terminates the thread at once (Flite stops mid-piece). */
  speak(voice: string, text: string, signal: AbortSignal): Promise<SpokenPiece> {
    if (!this.#alive) return Promise.reject(new FlitePieceError('the synthesizer thread ended'));
    if (signal.aborted) return Promise.reject(new FlitePieceAbortedError('stopped'));
    const file = `${randomUUID()}.wav`;
    return new Promise<SpokenPiece>((resolve, reject) => {
      const onAbort = () => {
        this.#pending = null;
        this.stop();
        // The thread may have been stopped while Flite was writing the file.
        void rm(join(directory(), file), { force: true });
        reject(new FlitePieceAbortedError('stopped'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pending = (reply) => {
        signal.removeEventListener('abort', onAbort);
        this.#worker.unref();
        if (reply.ok) resolve({ format: reply.format, pcm: reply.pcm });
        else reject(new FlitePieceError(reply.message));
      };
      this.#worker.ref();
      this.#worker.postMessage({ voice, text, file });
    });
  }

  stop(): void {
    this.#alive = false;
    void this.#worker.terminate();
  }

  #settle(reply: FlitePieceReply): void {
    const pending = this.#pending;
    this.#pending = null;
    pending?.(reply);
  }

  #end(message: string): void {
    this.#alive = false;
    this.#settle({ ok: false, message });
  }
}

/** A thread lent to one synthesis; `release` gives it back (or forgets it, if it ended). */
export interface FliteLease {
  readonly thread: FliteThread;
  release(): void;
}

/**
 * At most `size` threads, each lent to one synthesis at a time; kept warm between syntheses
 * (starting one loads tsx and the module: hundreds of ms). When all are lent, `lend` returns
 * null: the caller answers busy rather than queueing work no deadline would bound.
 */
export class FliteWorkers {
  readonly #size: number;
  readonly #module: () => Promise<unknown>;
  readonly #idle: FliteThread[] = [];
  #lent = 0;

  constructor(options: { readonly size: number; readonly module: () => Promise<unknown> }) {
    this.#size = options.size;
    this.#module = options.module;
  }

  /** Syntheses holding a thread now. */
  get lentCount(): number {
    return this.#lent;
  }

  /** Threads started and waiting for a synthesis. */
  get idleCount(): number {
    return this.#idle.filter((thread) => thread.alive).length;
  }

  /** A thread for one synthesis, or null when `size` syntheses are running. */
  async lend(): Promise<FliteLease | null> {
    if (this.#lent >= this.#size) return null;
    this.#lent += 1;
    let released = false;
    const release = (thread: FliteThread | null) => {
      if (released) return;
      released = true;
      this.#lent -= 1;
      if (thread?.alive) this.#idle.push(thread);
    };
    try {
      let thread = this.#idle.pop();
      while (thread !== undefined && !thread.alive) thread = this.#idle.pop();
      thread ??= new FliteThread(await this.#module());
      const lent = thread;
      return { thread: lent, release: () => release(lent) };
    } catch (error) {
      release(null);
      throw error;
    }
  }
}
