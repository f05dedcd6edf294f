import type { Recording } from '../../ports/speech';
import { readWavLayout } from './wav-format';
import { resample } from './windowed-sinc-resampler';

/** What whisper models hear: mono at 16 kHz. */
export const RECOGNIZER_SAMPLE_RATE = 16_000;

/**
 * The recording's 16-bit samples (the edge took only those), every channel averaged into one,
 * as floats in [-1, 1). A `data` chunk longer than the file (a recorder that never patched the
 * size) ends where the file does, in whole frames.
 */
export function mixToMono(recording: Recording): Float32Array {
  const layout = readWavLayout(recording.wav);
  if (!layout.ok) throw new Error(`not a WAV recording: ${layout.issue}`);
  const { channels, sampleWidth } = recording.format;
  if (sampleWidth !== 2) throw new Error(`${sampleWidth * 8}-bit samples; 16-bit expected`);
  const { dataOffset, dataBytes } = layout.value;
  const present = recording.wav.length - dataOffset;
  const frames = Math.floor(Math.min(dataBytes ?? present, present) / (channels * 2));
  const view = new DataView(recording.wav.buffer, recording.wav.byteOffset + dataOffset);
  const mono = new Float32Array(frames);
  const gain = 1 / (32_768 * channels);
  for (let frame = 0; frame < frames; frame += 1) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel += 1) {
      sum += view.getInt16((frame * channels + channel) * 2, true);
    }
    mono[frame] = sum * gain;
  }
  return mono;
}

/** The recording as a whisper model takes it: mono, 16 kHz, float32. */
export function recognizerInput(recording: Recording): Float32Array {
  return resample(mixToMono(recording), recording.format.sampleRate, RECOGNIZER_SAMPLE_RATE);
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
