import { type ChildProcess, fork } from 'node:child_process';
import type { Recording } from '../../ports/speech';
import type { RecognizerModel } from './recognizer-engines';

/** One recording to hear, sent to the recognizer process. */
export interface RecognizerRequest {
  readonly id: number;
  readonly recording: Recording;
  readonly maxCharacters: number;
}

/** What the recognizer process sends back. */
export type RecognizerReply =
  | { readonly kind: 'ready'; readonly loadMs: number }
  | { readonly kind: 'load_failed'; readonly message: string }
  | {
      readonly kind: 'recognized';
      readonly id: number;
      /** Null: past the request's maxCharacters (transcriptWithinLimit). */
      readonly text: string | null;
      /** 16 kHz samples the recording became. */
      readonly samples: number;
      readonly resampleMs: number;
      readonly recognizeMs: number;
    }
  | { readonly kind: 'failed'; readonly id: number; readonly message: string };

export type Recognized = Extract<RecognizerReply, { kind: 'recognized' }>;

/** The recognizer process could not hear: its model did not load, it failed or it exited. */
export class RecognizerProcessError extends Error {
  override readonly name = 'RecognizerProcessError';
}

/** Both engines write to standard error; the last lines say why a load failed. */
const KEPT_ERROR_LINES = 5;
const CHILD = new URL('./recognizer-child.ts', import.meta.url);

/**
 * One process that loads a speech model (Moonshine on sherpa-onnx, or whisper.cpp) and hears one
 * recording at a time (recognizer-child.ts), forked under tsx as npm start runs. `kill` ends it
 * at once, whatever it is doing: the only way to stop a recognition either addon has begun.
 */
export class RecognizerProcess {
  readonly #child: ChildProcess;
  readonly #ready: Promise<number>;
  readonly #errorLines: string[] = [];
  #pending: { id: number; settle: (reply: RecognizerReply | Error) => void } | null = null;
  #exited: Error | null = null;
  #nextId = 0;

  constructor(model: RecognizerModel, threads: number) {
    this.#child = fork(CHILD, [JSON.stringify(model), String(threads)], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.#child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      this.#errorLines.push(...text.split('\n').filter((line) => line.trim() !== ''));
      this.#errorLines.splice(0, Math.max(0, this.#errorLines.length - KEPT_ERROR_LINES));
    });
    this.#ready = new Promise<number>((resolve, reject) => {
      this.#child.on('message', (reply: RecognizerReply) => {
        if (reply.kind === 'ready') resolve(reply.loadMs);
        else if (reply.kind === 'load_failed') reject(this.#failure(reply.message));
        else if (this.#pending?.id === reply.id) this.#pending.settle(reply);
      });
      this.#child.on('exit', (code, signal) => {
        this.#exited ??= this.#failure(`the recognizer process exited (${signal ?? code})`);
        reject(this.#exited);
        this.#pending?.settle(this.#exited);
      });
      this.#child.on('error', (error) => {
        // A process that could not be started or signalled is not used again.
        this.#exited ??= this.#failure(error.message);
        reject(this.#exited);
        this.#pending?.settle(this.#exited);
      });
    });
    // A failed start is reported to the recognition that waits for it.
    this.#ready.catch(() => undefined);
  }

  /** Milliseconds the model took to load, once the process is ready. */
  ready(): Promise<number> {
    return this.#ready;
  }

  /** Whether the process is gone (exited or killed): a new one must be started. */
  get exited(): boolean {
    return this.#exited !== null;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Hears `recording`; one at a time (the adapter queues the others). */
  async recognize(recording: Recording, maxCharacters: number): Promise<Recognized> {
    await this.#ready;
    if (this.#exited !== null) throw this.#exited;
    this.#nextId += 1;
    const id = this.#nextId;
    const reply = await new Promise<RecognizerReply | Error>((settle) => {
      this.#pending = { id, settle };
      this.#child.send({ id, recording, maxCharacters } satisfies RecognizerRequest);
    });
    this.#pending = null;
    if (reply instanceof Error) throw reply;
    if (reply.kind !== 'recognized') {
      throw this.#failure(reply.kind === 'failed' ? reply.message : reply.kind);
    }
    return reply;
  }

  /** Ends the process now, a recognition in progress with it. */
  kill(): void {
    if (this.#exited !== null) return;
    // Gone from now on, not from its 'exit' event: the next recording must start a new process.
    this.#exited = this.#failure('the recognizer process was stopped');
    this.#pending?.settle(this.#exited);
    this.#child.kill('SIGKILL');
  }

  #failure(message: string): RecognizerProcessError {
    const stderr = this.#errorLines.length > 0 ? ` (${this.#errorLines.join(' | ')})` : '';
    return new RecognizerProcessError(`${message}${stderr}`);
  }
}
