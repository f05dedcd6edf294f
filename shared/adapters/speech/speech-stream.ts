import {
  MAX_SPOKEN_SECONDS,
  type PcmFormat,
  SpeechFailure,
  SpeechProviderError,
  type SynthesizedSpeech,
} from '../../ports/speech';
import { pieceLimit, REPLY_PIECES } from '../system/body-reads';
import { isRiffWave, readWavLayout, type WavReading } from './wav-format';

/**
 * What a provider's speech may be (docs/speech-limits.md): a WAV header of at most 16 KiB before
 * its samples (a real one is 44 bytes, a few hundred with metadata chunks), speech as 16-bit PCM
 * at 8-48 kHz in 1 or 2 channels, and at most `MAX_SPOKEN_SECONDS` of it: 60 s of 48 kHz stereo
 * is 11 MiB, of OpenAI's 24 kHz mono 2.7 MiB. Counted as the bytes arrive, before anything else
 * reads them: more audio is not read (the speech ends there, as the embedded synthesizer's),
 * a longer header or another format is a malformed reply (502).
 */
export const PROVIDER_SPEECH_LIMITS = {
  wavHeaderBytes: 16 * 1024,
  minSampleRate: 8_000,
  maxSampleRate: 48_000,
  maxChannels: 2,
  sampleWidth: 2,
} as const;

/** The most PCM bytes of `format` a synthesis hands on. */
export const spokenBytesLimit = (format: PcmFormat): number =>
  MAX_SPOKEN_SECONDS * format.sampleRate * format.channels * format.sampleWidth;

/** What a provider's body holds: raw PCM in a known format, or a WAV file (its header says). */
export type ExpectedAudio =
  | { readonly kind: 'pcm'; readonly format: PcmFormat }
  | { readonly kind: 'wav' };

export interface SpeechStreamHandlers {
  /** Turns whatever the source threw into the provider's error (a `SpeechProviderError`). */
  readonly failure: (error: unknown) => SpeechProviderError;
  /** Called once when the stream ends, fails or is left early (clears the call's deadline). */
  readonly finish: () => void;
  /**
   * Whether the call was cut off (its deadline, the caller): a body that then ends without an
   * error (an HTTP/2 stream closed by the abort) is not the whole speech.
   */
  readonly interrupted: () => boolean;
}

const malformed = (message: string) =>
  new SpeechProviderError(SpeechFailure.malformedReply, 'text_to_speech', message);

/**
 * Speech as a provider's body yields it: reads only as far as the format is known (a WAV header;
 * nothing for raw PCM), then hands the rest on chunk by chunk as it arrives. A body that starts
 * as a WAV file is read as one even when raw PCM was asked for (some servers ignore the ask).
 * Chunks hold whole sample frames: a player writing them one by one drops a partial frame.
 */
export async function readSpeechStream(
  source: AsyncIterable<Uint8Array>,
  expected: ExpectedAudio,
  handlers: SpeechStreamHandlers,
): Promise<SynthesizedSpeech> {
  const iterator = source[Symbol.asyncIterator]();
  const head = new HeadBuffer(PROVIDER_SPEECH_LIMITS.wavHeaderBytes);
  const pieces = new PieceCount(pieceLimit(PROVIDER_SPEECH_LIMITS.wavHeaderBytes));
  let ended = false;
  const pull = async (): Promise<boolean> => {
    pieces.count();
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      return false;
    }
    head.append(next.value);
    pieces.received(next.value.length);
    return true;
  };
  let format: PcmFormat;
  let first: Uint8Array;
  try {
    while (head.length < 12 && !head.full && (await pull()));
    if (isRiffWave(head.bytes)) {
      // Parsed again only once the bytes have doubled (or at the limit, or the end): the work of
      // a header cut into many small chunks stays linear in its size.
      let parsedAt = 0;
      for (;;) {
        const layout: WavReading =
          head.length >= 2 * parsedAt || head.full || ended
            ? readWavLayout(head.bytes)
            : { ok: false, reason: 'incomplete', issue: 'not parsed yet' };
        if (layout.ok) {
          format = layout.value.format;
          first = concat(head.bytes.subarray(layout.value.dataOffset), head.overflow);
          break;
        }
        parsedAt = Math.max(parsedAt, head.length, 1);
        if (layout.reason === 'invalid') {
          throw malformed(`the speech is not a usable WAV file: ${layout.issue}`);
        }
        if (head.full) {
          throw malformed(
            `the speech's WAV header is longer than ${PROVIDER_SPEECH_LIMITS.wavHeaderBytes} bytes`,
          );
        }
        if (ended) throw malformed(`the speech is not a usable WAV file: ${layout.issue}`);
        await pull();
      }
    } else if (expected.kind === 'pcm') {
      format = expected.format;
      first = concat(head.bytes, head.overflow);
    } else {
      throw malformed('WAV was asked for, and the speech is not a WAV file');
    }
    const unusable = unusableSpeechFormat(format);
    if (unusable !== null) throw malformed(unusable);
  } catch (error) {
    handlers.finish();
    await iterator.return?.().catch(() => undefined);
    throw handlers.failure(error);
  }
  const cut = { value: false };
  pieces.allow(pieceLimit(PROVIDER_SPEECH_LIMITS.wavHeaderBytes + spokenBytesLimit(format)));
  return {
    format,
    chunks: frames(iterator, first, ended, format, handlers, cut, pieces),
    cut: () => cut.value,
  };
}

/** Why `format` is not speech we hand on, or null. */
export function unusableSpeechFormat(format: PcmFormat): string | null {
  const { minSampleRate, maxSampleRate, maxChannels, sampleWidth } = PROVIDER_SPEECH_LIMITS;
  if (format.sampleWidth !== sampleWidth)
    return `the speech has ${format.sampleWidth * 8}-bit samples; 16-bit PCM is taken`;
  if (
    format.sampleRate < minSampleRate ||
    format.sampleRate > maxSampleRate ||
    format.channels < 1 ||
    format.channels > maxChannels
  ) {
    return `the speech says ${format.sampleRate} Hz and ${format.channels} channels; ${minSampleRate}-${maxSampleRate} Hz, 1-${maxChannels} channels are taken`;
  }
  return null;
}

/**
 * The first bytes of a body, each copied once into room for `limit` of them; what the chunk that
 * filled the room held beyond it is kept apart (`overflow`: audio, for a header that fits).
 */
class HeadBuffer {
  readonly #room: Uint8Array;
  #length = 0;
  #overflow: Uint8Array = new Uint8Array(0);

  constructor(readonly limit: number) {
    this.#room = new Uint8Array(limit);
  }

  get length(): number {
    return this.#length;
  }

  get full(): boolean {
    return this.#length >= this.limit;
  }

  get bytes(): Uint8Array {
    return this.#room.subarray(0, this.#length);
  }

  get overflow(): Uint8Array {
    return this.#overflow;
  }

  append(chunk: Uint8Array): void {
    const taken = chunk.subarray(0, this.limit - this.#length);
    this.#room.set(taken, this.#length);
    this.#length += taken.length;
    this.#overflow = chunk.subarray(taken.length);
  }
}

async function* frames(
  iterator: AsyncIterator<Uint8Array>,
  first: Uint8Array,
  ended: boolean,
  format: PcmFormat,
  handlers: SpeechStreamHandlers,
  /** Set when the spoken limit stopped the speech with more of it left. */
  cutAtLimit: { value: boolean },
  pieces: PieceCount,
): AsyncGenerator<Uint8Array> {
  const frameBytes = format.channels * format.sampleWidth;
  const limitBytes = spokenBytesLimit(format);
  let carried = first;
  let sent = 0;
  let done = ended;
  let cut = false;
  try {
    for (;;) {
      const whole = Math.min(carried.length - (carried.length % frameBytes), limitBytes - sent);
      if (whole > 0) {
        sent += whole;
        yield carried.slice(0, whole);
        carried = carried.subarray(whole);
      }
      // The spoken limit reached: the rest is not read (the body is cancelled below). Speech
      // that lasts exactly the limit is whole: one more read tells whether the body ends there.
      if (sent >= limitBytes) {
        cut = true;
        // (A read that fails there counts as more: the speech did not end at the limit.)
        if (carried.length === 0 && !done)
          done = await iterator.next().then(
            (next) => next.done === true,
            () => false,
          );
        cutAtLimit.value = carried.length > 0 || !done;
        break;
      }
      if (done) break;
      pieces.count();
      const next = await iterator.next();
      if (next.done) done = true;
      else {
        pieces.received(next.value.length);
        carried = concat(carried, next.value);
      }
    }
    if (!cut && handlers.interrupted()) {
      throw new DOMException('the speech was cut off by its deadline', 'AbortError');
    }
    if (sent === 0) throw malformed('the provider sent no audio');
  } catch (error) {
    throw handlers.failure(error);
  } finally {
    handlers.finish();
    // Left early (the client went away): stop reading the provider's body.
    if (!done) await iterator.return?.().catch(() => undefined);
  }
}

/**
 * The reads of a provider's speech, whatever they bring, and the bytes each read beyond them
 * must bring on average: a real-time provider's 20 ms frames are 320 bytes at 8 kHz mono, 960 at
 * OpenAI's 24 kHz. 400 reads through the route cost about 70 ms of CPU on npm start.
 */
export const SPEECH_READS = { allowance: 400, minAverageBytes: 256 } as const;

/**
 * The reads of a provider's body, against a limit that grows with what it may send
 * (`pieceLimit`, body-reads.ts) and one that grows with what it has sent (one read per
 * `SPEECH_READS`): each read costs the fetch stack and the route the same whatever its size, so
 * a provider dripping bytes fails early, as a malformed reply. Held only to the first, a server
 * writing 2 bytes a millisecond was read 2,893 times for 0.12 s of audio: 440-570 ms of CPU on npm
 * start; now 400 reads. Past them, a read costs what the audio it brings is worth.
 */
class PieceCount {
  #count = 0;
  #bytes = 0;

  constructor(private limit: number) {}

  allow(limit: number): void {
    this.limit = limit;
  }

  /** Bytes that a read brought. */
  received(bytes: number): void {
    this.#bytes += bytes;
  }

  count(): void {
    this.#count += 1;
    const earned = SPEECH_READS.allowance + Math.floor(this.#bytes / SPEECH_READS.minAverageBytes);
    if (this.#count > this.limit) {
      throw malformed(
        `the speech came in more than ${this.limit} pieces (under ${REPLY_PIECES.minAverageBytes} bytes each on average)`,
      );
    }
    if (this.#count > earned) {
      throw malformed(
        `the speech came in ${this.#count} pieces for ${this.#bytes} bytes (under ${SPEECH_READS.minAverageBytes} bytes each past ${SPEECH_READS.allowance})`,
      );
    }
  }
}

function concat(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length === 0) return right;
  if (right.length === 0) return left;
  const joined = new Uint8Array(left.length + right.length);
  joined.set(left);
  joined.set(right, left.length);
  return joined;
}
