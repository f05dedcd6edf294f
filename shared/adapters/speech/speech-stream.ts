import {
  type PcmFormat,
  SpeechFailure,
  SpeechProviderError,
  type SynthesizedSpeech,
} from '../../ports/speech';
import { isRiffWave, readWavLayout } from './wav-format';

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
  let head: Uint8Array = new Uint8Array(0);
  let ended = false;
  const pull = async (): Promise<boolean> => {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      return false;
    }
    head = concat(head, next.value);
    return true;
  };
  let format: PcmFormat;
  try {
    while (head.length < 12 && (await pull()));
    if (isRiffWave(head)) {
      for (;;) {
        const layout = readWavLayout(head);
        if (layout.ok) {
          format = layout.value.format;
          head = head.subarray(layout.value.dataOffset);
          break;
        }
        if (layout.reason === 'invalid' || !(await pull())) {
          throw malformed(`the speech is not a usable WAV file: ${layout.issue}`);
        }
      }
    } else if (expected.kind === 'pcm') {
      format = expected.format;
    } else {
      throw malformed('WAV was asked for, and the speech is not a WAV file');
    }
  } catch (error) {
    handlers.finish();
    await iterator.return?.().catch(() => undefined);
    throw handlers.failure(error);
  }
  return { format, chunks: frames(iterator, head, ended, format, handlers) };
}

async function* frames(
  iterator: AsyncIterator<Uint8Array>,
  first: Uint8Array,
  ended: boolean,
  format: PcmFormat,
  handlers: SpeechStreamHandlers,
): AsyncGenerator<Uint8Array> {
  const frameBytes = format.channels * format.sampleWidth;
  let carried = first;
  let sent = 0;
  let done = ended;
  try {
    for (;;) {
      const whole = carried.length - (carried.length % frameBytes);
      if (whole > 0) {
        sent += whole;
        yield carried.slice(0, whole);
        carried = carried.subarray(whole);
      }
      if (done) break;
      const next = await iterator.next();
      if (next.done) done = true;
      else carried = concat(carried, next.value);
    }
    if (handlers.interrupted()) {
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

function concat(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length === 0) return right;
  const joined = new Uint8Array(left.length + right.length);
  joined.set(left);
  joined.set(right, left.length);
  return joined;
}
