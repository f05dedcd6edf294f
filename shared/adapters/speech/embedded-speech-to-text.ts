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
import { type SpeechDeadline, startDeadline } from './speech-deadline';
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
 * more are refused at once. A caller that leaves is answered at once, but its recognition keeps
 * the turn until it ends (at most 60 s of accepted audio, its documented work): ending the
 * process instead would make the next recording, often another node's, pay a model load (about
 * a second, 0.6-0.7 s of CPU for Moonshine tiny) beyond any audio of its own. The deadline ends a recognition by ending its process
 * and starts a new one at once, so the load runs while nobody waits on it.
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
    // The deadline alone: it must still end a recognition whose caller has left.
    const deadline = startDeadline(options.timeoutMs, undefined, this.#timing);
    const gone = options.signal;
    const ended = gone === undefined ? deadline.signal : AbortSignal.any([deadline.signal, gone]);
    try {
      await this.#takeTurn(ended, deadline.expired);
    } catch (error) {
      deadline.clear();
      throw error;
    }
    if (ended.aborted) {
      this.#turns.release(TURN);
      deadline.clear();
      throw stopped(deadline.expired());
    }
    return this.#recognize(recording, deadline, gone);
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

  /**
   * Hears `recording` in this turn, which stays taken until the process is free again. A caller
   * that leaves is answered at once and the recognition runs to its end, its text dropped: neither
   * engine can stop one it has begun (whisper.node checks its stop flag only before and after
   * whisper_full), its audio was accepted (at most 60 s), and the model stays loaded. At the
   * deadline the process is ended and a new one started at once, loading the model while nobody
   * waits on it.
   */
  #recognize(recording: Recording, deadline: SpeechDeadline, gone?: AbortSignal): Promise<Heard> {
    let recognizer: RecognizerProcess;
    let running: ReturnType<RecognizerProcess['recognize']>;
    try {
      recognizer = this.#recognizer();
      running = recognizer.recognize(recording, this.#options.maxCharacters);
    } catch (error) {
      // Not started (a process that could not be made): the turn is free for the next one.
      deadline.clear();
      this.#turns.release(TURN);
      return Promise.reject(recognizerFailed(error));
    }
    let leave: (error: SpeechProviderError) => void = () => undefined;
    const abandoned = new Promise<never>((_, reject) => {
      leave = reject;
    });
    const onExpired = () => {
      leave(stopped(true));
      recognizer.kill();
      // Loading ahead is only a head start: the next recording starts one if this could not.
      try {
        this.#recognizer();
      } catch {}
    };
    const onGone = () => leave(stopped(false));
    deadline.signal.addEventListener('abort', onExpired, { once: true });
    gone?.addEventListener('abort', onGone, { once: true });
    const free = () => {
      deadline.signal.removeEventListener('abort', onExpired);
      gone?.removeEventListener('abort', onGone);
      deadline.clear();
      this.#turns.release(TURN);
    };
    running.then(free, free);
    return Promise.race([running, abandoned]).then(
      (result) => {
        const { text } = result;
        if (text === null) {
          throw transcriptTooLongError('the embedded recognizer', this.#options.maxCharacters);
        }
        return { ...result, text };
      },
      (error: unknown) => {
        throw recognizerFailed(error);
      },
    );
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

/** A failure of the recognizer as the port's error: what it was, as `unavailable` otherwise. */
function recognizerFailed(error: unknown): SpeechProviderError {
  if (error instanceof SpeechProviderError) return error;
  return new SpeechProviderError(
    SpeechFailure.unavailable,
    DIRECTION,
    `the embedded recognizer failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
