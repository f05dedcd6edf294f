import type { Recording } from '../../ports/speech';
import { SpeechBandDecimator } from './speech-band-decimator';
import { readWavData } from './wav-format';
import { resample } from './windowed-sinc-resampler';

/** What whisper models hear: mono at 16 kHz. */
export const RECOGNIZER_SAMPLE_RATE = 16_000;

/**
 * The bytes of the recording's samples, as many as the file holds (readWavData). The edge checked
 * the header (recording-check.ts): one that does not read here is a bug.
 */
export function recordingData(recording: Recording): Uint8Array {
  const read = readWavData(recording.wav);
  if (!read.ok) throw new Error(`not a WAV recording: ${read.issue}`);
  return read.value.data;
}

/**
 * The recording's 16-bit samples (the edge took only those), every channel averaged into one,
 * as floats in [-1, 1), in whole frames.
 */
export function mixToMono(recording: Recording): Float32Array {
  const { channels } = recording.format;
  const data = pcm16Data(recording);
  return monoFrames(data, channels, 0, Math.floor(data.length / (channels * 2)));
}

/** The recording's sample bytes; only 16-bit samples are taken. */
export function pcm16Data(recording: Recording): Uint8Array {
  const { sampleWidth } = recording.format;
  if (sampleWidth !== 2) throw new Error(`${sampleWidth * 8}-bit samples; 16-bit expected`);
  return recordingData(recording);
}

/**
 * Frames `first` to `end` (exclusive) of 16-bit PCM `data` of `channels`, mixed as `mixToMono`
 * does; a frame the data does not hold (before 0, after its last whole frame) is silence.
 */
export function monoFrames(
  data: Uint8Array,
  channels: number,
  first: number,
  end: number,
): Float32Array {
  const frames = Math.floor(data.length / (channels * 2));
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const mono = new Float32Array(Math.max(0, end - first));
  const gain = 1 / (32_768 * channels);
  for (let frame = Math.max(0, first); frame < Math.min(end, frames); frame += 1) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel += 1) {
      sum += view.getInt16((frame * channels + channel) * 2, true);
    }
    mono[frame - first] = sum * gain;
  }
  return mono;
}

/** Above this rate a recording is first divided by a whole factor: the resampler's cost follows its input. */
const DIVIDED_ABOVE_HZ = 48_000;

/**
 * The recording as the recognizer takes it: mono, 16 kHz, float32. A rate above 48 kHz is first
 * divided by a whole factor to 48 kHz or just below (speech-band-decimator.ts: 16 multiply-adds an
 * input sample, against 64 and table lookups in the windowed sinc), then resampled from there.
 */
export function recognizerInput(recording: Recording): Float32Array {
  const { sampleRate, channels } = recording.format;
  const factor = Math.ceil(sampleRate / DIVIDED_ABOVE_HZ);
  if (factor === 1) return resample(mixToMono(recording), sampleRate, RECOGNIZER_SAMPLE_RATE);
  const data = pcm16Data(recording);
  const decimator = new SpeechBandDecimator(sampleRate, factor);
  const outputs = decimator.outputLength(Math.floor(data.length / (channels * 2)));
  const { first, end } = decimator.inputSpan(0, outputs);
  const divided = decimator.decimate(monoFrames(data, channels, first, end), outputs);
  return resample(divided, sampleRate / factor, RECOGNIZER_SAMPLE_RATE);
}

/**
 * Float samples as 16-bit PCM, clipped: what the addon's `transcribeData` takes (it turns them
 * back into floats). The input was 16-bit, so nothing audible is lost.
 */
export function toPcm16(samples: Float32Array): Int16Array {
  const pcm = new Int16Array(samples.length);
  for (let index = 0; index < samples.length; index += 1) {
    const value = Math.round((samples[index] ?? 0) * 32_768);
    pcm[index] = Math.max(-32_768, Math.min(32_767, value));
  }
  return pcm;
}
