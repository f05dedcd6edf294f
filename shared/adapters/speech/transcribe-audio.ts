import type { Recording } from '../../ports/speech';
import { monoFrames, pcm16Data, recordingData, toPcm16 } from './recognizer-input';
import { SpeechBandDecimator } from './speech-band-decimator';

/** The PCM rates Transcribe streaming takes (signed 16-bit little-endian). */
export const TRANSCRIBE_RATES = { min: 8_000, max: 48_000 } as const;

/**
 * How much audio one AudioEvent carries. Transcribe's best practices: chunks of 50 to 200 ms, all
 * of one size, sent as close to real time as possible (an event may hold at most 1 s).
 */
export const TRANSCRIBE_CHUNK_MS = 100;

/** A recording as Transcribe streaming takes it: mono 16-bit PCM at a rate it accepts. */
export interface TranscribeAudio {
  readonly sampleRate: number;
  /**
   * The PCM in chunks of `chunkMs` (the last one shorter), each made when it is asked for: the
   * adapter asks for one per event, at real time, so the main thread is never held for more
   * than one chunk's mixing and filtering (bench/transcribe-audio-bench.ts).
   */
  chunks(chunkMs: number): Generator<Uint8Array>;
}

/**
 * The recording's samples for Transcribe. A mono WAV at 8-48 kHz (a node's usual 48 kHz
 * recording) is sent as its `data` chunk, not copied; more channels are mixed into one; a rate
 * above 48 kHz is divided by the smallest whole factor that brings it to 48 kHz or less (192 kHz
 * and 96 kHz to 48 kHz, 88.2 kHz to 44.1 kHz) through a speech-band filter
 * (speech-band-decimator.ts): the band to 8 kHz kept exactly, nothing folded back. A rate the
 * factor does not divide is sent as the nearest whole hertz (at most 21 ppm off: inaudible).
 */
export function transcribeAudio(recording: Recording): TranscribeAudio {
  const { sampleRate, channels } = recording.format;
  if (sampleRate < TRANSCRIBE_RATES.min)
    throw new Error(`${sampleRate} Hz is below what Transcribe takes`);
  if (channels === 1 && sampleRate <= TRANSCRIBE_RATES.max) {
    const data = recordingData(recording);
    const pcm = data.subarray(0, data.length - (data.length % 2));
    return { sampleRate, chunks: (chunkMs) => viewChunks(pcm, sampleRate, chunkMs) };
  }
  const data = pcm16Data(recording);
  const frames = Math.floor(data.length / (channels * 2));
  const factor = Math.ceil(sampleRate / TRANSCRIBE_RATES.max);
  if (factor === 1) {
    const mixed = (from: number, to: number) => monoFrames(data, channels, from, to);
    return { sampleRate, chunks: (chunkMs) => madeChunks(frames, sampleRate, chunkMs, mixed) };
  }
  const decimator = new SpeechBandDecimator(sampleRate, factor);
  const rate = Math.round(sampleRate / factor);
  const decimated = (from: number, to: number) => {
    const { first, end } = decimator.inputSpan(from, to);
    return decimator.decimate(monoFrames(data, channels, first, end), to - from);
  };
  const outputs = decimator.outputLength(frames);
  return { sampleRate: rate, chunks: (chunkMs) => madeChunks(outputs, rate, chunkMs, decimated) };
}

const chunkSamples = (sampleRate: number, chunkMs: number) =>
  Math.max(1, Math.round((sampleRate * chunkMs) / 1000));

/** `pcm` in chunks of `chunkMs`, each a view of it. */
function* viewChunks(pcm: Uint8Array, sampleRate: number, chunkMs: number): Generator<Uint8Array> {
  const chunkBytes = chunkSamples(sampleRate, chunkMs) * 2;
  for (let at = 0; at < pcm.length; at += chunkBytes) {
    yield pcm.subarray(at, Math.min(at + chunkBytes, pcm.length));
  }
}

/** `samples` samples in chunks of `chunkMs`, each made by `make` (floats) when asked for. */
function* madeChunks(
  samples: number,
  sampleRate: number,
  chunkMs: number,
  make: (from: number, to: number) => Float32Array,
): Generator<Uint8Array> {
  const size = chunkSamples(sampleRate, chunkMs);
  for (let at = 0; at < samples; at += size) {
    const pcm = toPcm16(make(at, Math.min(at + size, samples)));
    yield new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  }
}
