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
 * and is started on the first recording (or by `warm`). One recording is heard at a time,
 * `queueLimit` wait, more are refused at once. Neither engine can stop a recognition it has begun:
 * only ending its process does, and the next recording then waits for a new one to be ready. So a
 * caller that leaves is answered at once, and its recognition is ended only when what is left of
 * it would take longer than a new process takes to be ready (recognitionWorthEnding): whisper.cpp,
 * which encodes a whole 30 s window whatever the recording, is ended (its remaining seconds
 * against a load of about 0.2 s); Moonshine, whose work follows the audio, finishes a command
 * and is ended on a long recording. The deadline always ends a recognition by ending its process.
 * Either way a new process is started at once, loading while nobody waits on it.
 */
export class EmbeddedSpeechToText implements SpeechToText {
  readonly #options: EmbeddedSpeechToTextOptions;
  readonly #queueLimit: number;
  readonly #threads: number;
  readonly #timing: Timing;
  readonly #turns: SlotQueue<typeof TURN>;
  #process: RecognizerProcess | null = null;
  /** How long the last process took from its start to ready: what ending a recognition costs. */
  #restartMs = 0;
  /** Milliseconds a second of audio took the last recognition heard to its end; null before. */
  #msPerAudioSecond: number | null = null;

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
      const startedAt = this.#timing.monotonic();
      const process = start(this.#options.model, this.#threads);
      process.ready().then(() => {
        this.#restartMs = this.#timing.monotonic() - startedAt;
      }, ignore);
      this.#process = process;
    }
    return this.#process;
  }

  /**
   * Hears `recording` in this turn, which stays taken until the process is free again. A caller
   * that leaves is answered at once; its recording is not sent if the process is still loading,
   * and a recognition under way is ended (its process with it) when recognitionWorthEnding says
   * so, or runs to its end with its text dropped, unless it overruns what was expected of it by
   * a restart's time: ended then. At the deadline the process is ended. Either
   * way a new process is started at once, loading the model while nobody waits on it.
   */
  #recognize(recording: Recording, deadline: SpeechDeadline, gone?: AbortSignal): Promise<Heard> {
    let recognizer: RecognizerProcess;
    try {
      recognizer = this.#recognizer();
    } catch (error) {
      // Not started (a process that could not be made): the turn is free for the next one.
      deadline.clear();
      this.#turns.release(TURN);
      return Promise.reject(recognizerFailed(error));
    }
    /** When the recording was sent to the process; null while it waits for the model to load. */
    let sentAt: number | null = null;
    const running = recognizer.ready().then(() => {
      if (gone?.aborted === true || deadline.signal.aborted) throw stopped(deadline.expired());
      sentAt = this.#timing.monotonic();
      return recognizer.recognize(recording, this.#options.maxCharacters);
    });
    let leave: (error: SpeechProviderError) => void = () => undefined;
    const abandoned = new Promise<never>((_, reject) => {
      leave = reject;
    });
    const restart = () => {
      recognizer.kill();
      // Loading ahead is only a head start: the next recording starts one if this could not.
      try {
        this.#recognizer();
      } catch {}
    };
    const onExpired = () => {
      leave(stopped(true));
      restart();
    };
    /** Aborted once the recognition is over: a check left for later has nothing to end. */
    const over = new AbortController();
    const onGone = () => {
      leave(stopped(false));
      if (sentAt === null) return;
      const left: LeftRecognition = {
        sentAt,
        now: this.#timing.monotonic(),
        audioSeconds: recording.durationSeconds,
        msPerAudioSecond: this.#msPerAudioSecond,
        restartMs: this.#restartMs,
      };
      if (recognitionWorthEnding(left)) {
        restart();
        return;
      }
      // Kept, as long as the estimate holds: one that overruns it by a restart's time is ended then.
      const overrunMs = Math.max(0, expectedRemainingMs(left)) + left.restartMs;
      this.#timing.sleep(overrunMs, over.signal).then(restart, ignore);
    };
    deadline.signal.addEventListener('abort', onExpired, { once: true });
    gone?.addEventListener('abort', onGone, { once: true });
    const free = () => {
      over.abort();
      deadline.signal.removeEventListener('abort', onExpired);
      gone?.removeEventListener('abort', onGone);
      deadline.clear();
      this.#turns.release(TURN);
    };
    running.then(() => {
      if (sentAt !== null && recording.durationSeconds > 0) {
        this.#msPerAudioSecond = (this.#timing.monotonic() - sentAt) / recording.durationSeconds;
      }
      free();
    }, free);
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

/** What a recognition under way tells about ending it, when its caller has left. */
export interface LeftRecognition {
  /** When it was sent to the process (monotonic ms); null while the model loads: not begun. */
  readonly sentAt: number | null;
  readonly now: number;
  readonly audioSeconds: number;
  /** What a second of audio took the last recognition heard to its end; null before the first. */
  readonly msPerAudioSecond: number | null;
  /** What the last process took from its start to ready. */
  readonly restartMs: number;
}

/**
 * What is left of a recognition, in ms: the last recognition's time per second of audio, for this
 * recording's seconds, less what it has run (below 0 past its estimate); Infinity before any pace
 * is known.
 */
function expectedRemainingMs(left: LeftRecognition): number {
  if (left.msPerAudioSecond === null) return Number.POSITIVE_INFINITY;
  return left.msPerAudioSecond * left.audioSeconds - (left.now - (left.sentAt ?? left.now));
}

/**
 * Whether a recognition whose caller left should be ended with its process: when what is left of
 * it would keep the process longer than a new one takes to be ready. The next recording then
 * waits the shorter of the two, and no more CPU is spent than that. Before any recognition was
 * heard to its end nothing is known of the engine's pace: ended, which costs one load at most.
 * A recording not yet sent (the model loading) is never sent: nothing to end.
 */
export function recognitionWorthEnding(left: LeftRecognition): boolean {
  return left.sentAt !== null && expectedRemainingMs(left) > left.restartMs;
}

const ignore = () => undefined;

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
