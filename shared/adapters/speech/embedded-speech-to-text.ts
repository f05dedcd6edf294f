import { availableParallelism } from 'node:os';
import {
  type Recording,
  SpeechBusyError,
  type SpeechCallOptions,
  SpeechFailure,
  SpeechProviderError,
  type SpeechToText,
  type Transcript,
} from '../../ports/speech';
import { QueueFullError, QueueWaitEndedError, SlotQueue } from '../system/slot-queue';
import { systemTiming, type Timing } from '../system/timing';
import type { RecognizerModel } from './recognizer-engines';
import { type Recognized, RecognizerProcess } from './recognizer-process';
import { startDeadline } from './speech-deadline';
import { transcriptTooLongError } from './transcript-limit';

const DIRECTION = 'speech_to_text';

export interface EmbeddedSpeechToTextOptions {
  /** The model and the engine that runs it. */
  readonly model: RecognizerModel;
  /** The longest text answered, in characters; past it a 502 (a model looping on noise). */
  readonly maxCharacters: number;
  /** Recordings that may wait while one is heard; one more is refused (SpeechBusyError). */
  readonly queueLimit?: number;
  /** The engine's threads; by default the machine's cores (at most 8, as whisper.cpp allows). */
  readonly threads?: number;
  readonly timing?: Timing;
  /** Starts a recognizer process; tests count or replace them. */
  readonly startProcess?: (model: RecognizerModel, threads: number) => RecognizerProcess;
}

/** What the recognizer process measured, and the text it heard (within the limit). */
export type Heard = Recognized & { readonly text: string };

/** Two waiting: a household's nodes rarely speak at once, and each waits for the one before. */
const DEFAULT_QUEUE_LIMIT = 2;
/** About what one recording of a few seconds takes to hear on a small CPU (bench: --only stt). */
const RETRY_AFTER_SECONDS = 2;

/** The one recognition heard at a time. */
const TURN = 'turn';

/**
 * Speech in for `npm start` with nothing else installed: Moonshine on sherpa-onnx, or whisper.cpp
 * (@fugood/whisper.node), in a process of its own (RecognizerProcess), which loads the model once
 * and is started on the first recording (or by `warm`). One recording is heard at a time, `queueLimit` wait,
 * more are refused at once; the deadline ends a recognition by ending its process (the next
 * recording starts a new one, loading the model again) and frees its turn.
 */
export class EmbeddedSpeechToText implements SpeechToText {
  readonly #options: EmbeddedSpeechToTextOptions;
  readonly #queueLimit: number;
  readonly #threads: number;
  readonly #timing: Timing;
  readonly #turns: SlotQueue<typeof TURN>;
  #process: RecognizerProcess | null = null;

  constructor(options: EmbeddedSpeechToTextOptions) {
    this.#options = options;
    this.#queueLimit = options.queueLimit ?? DEFAULT_QUEUE_LIMIT;
    this.#threads = options.threads ?? Math.min(8, availableParallelism());
    this.#timing = options.timing ?? systemTiming;
    this.#turns = new SlotQueue([TURN], this.#queueLimit, this.#timing);
  }

  /** Starts the recognizer process and resolves once its model is loaded (ms it took). */
  warm(): Promise<number> {
    return this.#recognizer().ready();
  }

  async transcribe(recording: Recording, options: SpeechCallOptions): Promise<Transcript> {
    const result = await this.recognize(recording, options);
    return { text: result.text };
  }

  /** `transcribe`, with what the recognizer measured (the bench and tests read it). */
  async recognize(recording: Recording, options: SpeechCallOptions): Promise<Heard> {
    const deadline = startDeadline(options.timeoutMs, options.signal, this.#timing);
    try {
      await this.#takeTurn(deadline.signal, deadline.expired);
      try {
        return await this.#recognize(recording, deadline.signal, deadline.expired);
      } finally {
        this.#turns.release(TURN);
      }
    } finally {
      deadline.clear();
    }
  }

  /** Ends the recognizer process (npm start's shutdown, a test's end). */
  close(): void {
    this.#process?.kill();
    this.#process = null;
  }

  #recognizer(): RecognizerProcess {
    if (this.#process === null || this.#process.exited) {
      const start =
        this.#options.startProcess ??
        ((model: RecognizerModel, threads: number) => new RecognizerProcess(model, threads));
      this.#process = start(this.#options.model, this.#threads);
    }
    return this.#process;
  }

  async #recognize(
    recording: Recording,
    signal: AbortSignal,
    expired: () => boolean,
  ): Promise<Heard> {
    if (signal.aborted) throw stopped(expired());
    const recognizer = this.#recognizer();
    let onAbort = () => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        // The only way to stop either engine mid-recognition: end its process.
        recognizer.kill();
        reject(stopped(expired()));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const result = await Promise.race([
        recognizer.recognize(recording, this.#options.maxCharacters),
        aborted,
      ]);
      const { text } = result;
      if (text === null) {
        throw transcriptTooLongError('the embedded recognizer', this.#options.maxCharacters);
      }
      return { ...result, text };
    } catch (error) {
      if (error instanceof SpeechProviderError) throw error;
      throw new SpeechProviderError(
        SpeechFailure.unavailable,
        DIRECTION,
        `the embedded recognizer failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Waits for this recording's turn (within its deadline); refuses at once when the line is full. */
  async #takeTurn(signal: AbortSignal, expired: () => boolean): Promise<void> {
    try {
      await this.#turns.acquire(null, signal);
    } catch (error) {
      if (error instanceof QueueFullError) {
        throw new SpeechBusyError(DIRECTION, this.#queueLimit + 1, RETRY_AFTER_SECONDS);
      }
      if (error instanceof QueueWaitEndedError) throw stopped(expired());
      throw error;
    }
  }
}

function stopped(expired: boolean): SpeechProviderError {
  return expired
    ? new SpeechProviderError(SpeechFailure.timeout, DIRECTION, 'no transcript within the deadline')
    : new SpeechProviderError(SpeechFailure.unavailable, DIRECTION, 'the caller gave up');
}
