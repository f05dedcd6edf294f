import type { Recording } from '../../ports/speech';
import { mixToMono, RECOGNIZER_SAMPLE_RATE, recordingData, toPcm16 } from './recognizer-input';
import { resample } from './windowed-sinc-resampler';

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
  readonly pcm: Uint8Array;
}

/**
 * The recording's samples for Transcribe. A mono WAV at 8-48 kHz (a node's usual 48 kHz
 * recording) is sent as its `data` chunk, not copied; more channels are mixed into one; a rate
 * above 48 kHz is resampled to 16 kHz (what speech needs; the cost is the same for any target
 * rate: about 64 multiply-adds per input sample).
 */
export function transcribeAudio(recording: Recording): TranscribeAudio {
  const { sampleRate, channels } = recording.format;
  const accepted = sampleRate >= TRANSCRIBE_RATES.min && sampleRate <= TRANSCRIBE_RATES.max;
  if (channels === 1 && accepted) {
    const data = recordingData(recording);
    return { sampleRate, pcm: data.subarray(0, data.length - (data.length % 2)) };
  }
  const mono = mixToMono(recording);
  const rate = accepted ? sampleRate : RECOGNIZER_SAMPLE_RATE;
  const samples = accepted ? mono : resample(mono, sampleRate, rate);
  const pcm = toPcm16(samples);
  return { sampleRate: rate, pcm: new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength) };
}

/** The audio in chunks of `chunkMs` (the last one shorter), each a view of `audio.pcm`. */
export function* audioChunks(audio: TranscribeAudio, chunkMs: number): Generator<Uint8Array> {
  const chunkBytes = Math.max(2, Math.round((audio.sampleRate * chunkMs) / 1000) * 2);
  for (let at = 0; at < audio.pcm.length; at += chunkBytes) {
    yield audio.pcm.subarray(at, Math.min(at + chunkBytes, audio.pcm.length));
  }
}
