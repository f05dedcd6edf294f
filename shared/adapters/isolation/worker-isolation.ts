import { existsSync } from 'node:fs';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { ChatMessage } from '../../chat/chat-message';
import { UntrustedWorkOverrunError } from '../../conversation/errors';
import type { TurnAction } from '../../conversation/turn/turn-state';
import type { CompileCheck, UntrustedWork } from '../../conversation/turn/untrusted-work';
import type { IdGenerator } from '../../ports/clock';
import { HeldRegistrations } from './held-registrations';
import {
  actionOf,
  crossing,
  ID_BUFFER_BYTES,
  type WorkReply,
  type WorkRequest,
  writeId,
} from './isolation-protocol';

/** Arms a deadline and returns how to disarm it; tests pass one that fires at once. */
export type ArmDeadline = (onOverrun: () => void, ms: number) => () => void;

export interface WorkerIsolationOptions {
  /** Checking one model reply (`step`); a normal one takes a few ms. */
  readonly stepDeadlineMs?: number;
  /** Compiling one registration at start; the real node's takes tens of ms. */
  readonly compileDeadlineMs?: number;
  /** Registrations a worker holds, so that a step under one of them need not carry it. */
  readonly registrationsHeld?: number;
  readonly resourceLimits?: ResourceLimits;
  readonly armDeadline?: ArmDeadline;
}

/** The limits documented in docs/node-api.md (Limits) and docs/decisions/2026-11-24-isolation.md. */
export const ISOLATION_LIMITS = {
  stepDeadlineMs: 1_000,
  compileDeadlineMs: 2_000,
  /** Each at most MAX_REGISTRATION_BYTES (170 KB): under 6 MB of the worker's heap. */
  registrationsHeld: 16,
  resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
} as const;

const armTimer: ArmDeadline = (onOverrun, ms) => {
  const timer = setTimeout(onOverrun, ms);
  return () => clearTimeout(timer);
};

type Body =
  | Omit<Extract<WorkRequest, { kind: 'compile' }>, 'job'>
  | Omit<Extract<WorkRequest, { kind: 'step' }>, 'job'>;
/** A job's request, and for a step the history it sends (the pool's own messages). */
type Job = { readonly body: Body; readonly sent: readonly ChatMessage[] | null };
/** A job's answer, a step's action whole again. */
type Answer =
  | Exclude<WorkReply, { kind: 'stepped' }>
  | { readonly kind: 'stepped'; readonly action: TurnAction };
/** What the job running on a worker does with its replies, and with the worker's end. */
interface Running {
  answer(reply: WorkReply): void;
  fail(limit: 'memory' | 'crash', cause?: unknown): void;
}
/** A worker, what it holds, and its running job: one listener per event for its whole life. */
interface Started {
  readonly worker: Worker;
  readonly idBuffer: SharedArrayBuffer;
  readonly registrations: HeldRegistrations;
  running: Running | null;
}

/**
 * The untrusted work of each request on one warm worker thread (started on first use, one per
 * process, i.e. per Lambda container), one job at a time. A job past its deadline, or a worker
 * out of memory or dead, rejects that job with `UntrustedWorkOverrunError` once a fresh worker has
 * booted in its place (the next job, maybe another node's, finds it warm). The main thread never
 * runs the work itself.
 */
export class WorkerIsolation implements UntrustedWork {
  private current: Promise<Started> | null = null;
  private currentWorker: Started | null = null;
  private booted: Started | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private jobs = 0;
  /**
   * The history `worker` holds, index for index (its last step's): the next step sends only what
   * differs from it. Null after any failed job, and for a new worker.
   */
  private held: { readonly worker: Started; readonly messages: readonly ChatMessage[] } | null =
    null;
  private readonly limits: Required<WorkerIsolationOptions>;

  constructor(options: WorkerIsolationOptions = {}) {
    this.limits = { ...ISOLATION_LIMITS, armDeadline: armTimer, ...options };
  }

  async compile(source: Parameters<UntrustedWork['compile']>[0]): Promise<CompileCheck> {
    const job = () => ({ body: { kind: 'compile', source }, sent: null }) as const;
    const reply = await this.enqueue('start', this.limits.compileDeadlineMs, job, null);
    if (reply.kind !== 'compiled') throw new Error(`isolation: unexpected ${reply.kind}`);
    return reply.check;
  }

  async step(...[state, reply, context, commandSource]: Parameters<UntrustedWork['step']>) {
    const { commandSet, ids, serverTools, ...rest } = context;
    const { commandSet: _sameSet, ...tools } = serverTools;
    // Built when the job runs: what the worker holds then is its previous job's history.
    const job = (worker: Started): Job => {
      const held = this.held?.worker === worker ? this.held.messages : null;
      const messages = crossing(state.messages, held);
      const registration = worker.registrations.use(commandSet.hash);
      const body: Body = {
        kind: 'step',
        state: { ...state, messages },
        reply,
        context: { ...rest, serverTools: tools },
        commandSetHash: commandSet.hash,
        commandSource: registration.send ? commandSource : null,
        forget: registration.forget,
        ids: ids.random === true ? 'worker' : 'pool',
      };
      return { body, sent: state.messages };
    };
    const answer = await this.enqueue('turn', this.limits.stepDeadlineMs, job, ids);
    if (answer.kind !== 'stepped') throw new Error(`isolation: unexpected ${answer.kind}`);
    return answer.action;
  }

  /** Ends the worker (a process that wants to exit cleanly; idle workers never hold it open). */
  async close(): Promise<void> {
    const current = this.currentWorker;
    this.current = null;
    this.currentWorker = null;
    await current?.worker.terminate();
  }

  private enqueue(
    work: 'start' | 'turn',
    deadlineMs: number,
    job: (worker: Started) => Job,
    ids: IdGenerator | null,
  ): Promise<Answer> {
    const run = this.queue.then(() => this.run(work, deadlineMs, job, ids));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(
    work: 'start' | 'turn',
    deadlineMs: number,
    jobFor: (worker: Started) => Job,
    ids: IdGenerator | null,
  ): Promise<Answer> {
    const overrun = (limit: 'time' | 'memory' | 'crash', cause?: unknown) =>
      new UntrustedWorkOverrunError(work, limit, deadlineMs, { cause });
    const started = await this.started().catch((cause: unknown) => {
      throw overrun(limitOf(cause), cause);
    });
    const { worker, idBuffer } = started;
    const job = ++this.jobs;
    const { body, sent } = jobFor(started);
    // Whatever the job's outcome, the worker's history is known again only once it answers.
    this.held = null;
    return new Promise<Answer>((resolve, reject) => {
      let disarm = () => {};
      const settle = (finish: () => void) => {
        if (started.running !== running) return;
        started.running = null;
        disarm();
        worker.unref();
        finish();
      };
      const fail = (limit: 'time' | 'memory' | 'crash', cause?: unknown) => {
        this.discard(started);
        // A fresh worker boots before the job answers, so the request that overran pays for it:
        // in Lambda, work left running after the response would run in the next invocation.
        settle(() => void this.warmed().then(() => reject(overrun(limit, cause))));
      };
      const answer = (reply: WorkReply) => {
        if (reply.kind === 'id') {
          writeId(idBuffer, ids === null ? '' : ids.next(reply.prefix));
        } else if (reply.kind !== 'ready' && reply.job === job) {
          if (reply.kind === 'failed') settle(() => reject(new Error(reply.message)));
          else if (reply.kind === 'stepped' && sent !== null) {
            const action = actionOf(reply.action, sent);
            this.held = { worker: started, messages: action.state.messages };
            settle(() => resolve({ kind: 'stepped', action }));
          } else if (reply.kind === 'stepped') {
            settle(() => reject(new Error('isolation: a step answered a compile')));
          } else settle(() => resolve(reply));
        }
      };
      const running: Running = { answer, fail };
      started.running = running;
      worker.ref();
      try {
        worker.postMessage({ ...body, job } satisfies WorkRequest);
      } catch (error) {
        // Never sent: what the pool counts the worker as holding may be wrong, so it goes.
        this.discard(started);
        settle(() => reject(error));
        return;
      }
      disarm = this.limits.armDeadline(() => fail('time'), deadlineMs);
    });
  }

  /** True while a booted worker waits for work: the next job starts at once. */
  get warm(): boolean {
    return this.booted !== null && this.booted === this.currentWorker;
  }

  /** Boots a worker if none is running, and settles once it is ready or failed to boot. */
  private warmed(): Promise<void> {
    return this.started().then(
      () => undefined,
      () => undefined,
    );
  }

  private started(): Promise<Started> {
    if (this.current === null) {
      const idBuffer = new SharedArrayBuffer(ID_BUFFER_BYTES);
      const worker = createWorker(idBuffer, this.limits.resourceLimits);
      const registrations = new HeldRegistrations(this.limits.registrationsHeld);
      const started: Started = { worker, idBuffer, registrations, running: null };
      // Always listened to: an 'error' event with no listener would end the process.
      worker
        .on('message', (reply: WorkReply) => started.running?.answer(reply))
        .on('error', (error) => {
          this.discard(started);
          started.running?.fail(limitOf(error), error);
        })
        .on('exit', () => {
          this.discard(started);
          started.running?.fail('crash');
        });
      const current = new Promise<Started>((resolve, reject) => {
        worker.once('message', () => resolve(started));
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`isolation worker exited (${code})`)));
      });
      this.current = current;
      this.currentWorker = started;
      current
        .then(() => {
          worker.unref();
          this.booted = started;
        })
        .catch(() => undefined);
    }
    return this.current;
  }

  private discard(started: Started): void {
    if (this.currentWorker === started) {
      this.current = null;
      this.currentWorker = null;
    }
    void started.worker.terminate();
  }
}

/** A worker past its resourceLimits ends with ERR_WORKER_OUT_OF_MEMORY (even while booting). */
function limitOf(error: unknown): 'memory' | 'crash' {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crash';
}

/**
 * In a Lambda bundle the worker is `isolation-worker.mjs` beside `index.mjs` (a second esbuild
 * entry); from the sources (`npm start`, tests) it is the TypeScript file, loaded through tsx.
 */
function createWorker(idBuffer: SharedArrayBuffer, resourceLimits: ResourceLimits): Worker {
  const workerData = { idBuffer };
  const bundled = new URL('./isolation-worker.mjs', import.meta.url);
  if (existsSync(bundled)) return new Worker(bundled, { workerData, resourceLimits });
  return new Worker(new URL('./isolation-worker.ts', import.meta.url), {
    workerData,
    resourceLimits,
    execArgv: ['--import', 'tsx'],
  });
}
