import { besselI0 } from './windowed-sinc-resampler';

/**
 * A recording's rate divided by a whole factor (192 kHz by 4, 96 kHz by 2), keeping the speech
 * band exact: a low-pass FIR filter (a Kaiser-windowed sinc) of which only every `factor`-th
 * output is computed. Integer factors need no interpolation between input samples, so each tap
 * is one multiply-add of a fixed coefficient, and the filter is only as long as speech needs:
 * flat to PASS_HZ, at least 80 dB down from the new Nyquist frequency (nothing folds back), the
 * band between left to roll off. 63 taps from 192 kHz, 31 from 96 kHz: about 16 multiply-adds
 * per input sample at any factor.
 *
 * Its outputs are computed for any range on its own (`decimate`), reading only the input frames
 * around it: a recording is brought down chunk by chunk, as it is sent, and no chunk depends on
 * the one before.
 */

/** What speech recognition needs kept exactly: wideband speech, what a 16 kHz model hears. */
export const PASS_HZ = 8_000;
/** Stopband attenuation: aliases 80 dB down, below the 16-bit recording's own noise. */
const ATTENUATION_DB = 80;

/**
 * The filter's taps (Kaiser's design rules): odd length, symmetric, their sum 1 (a constant
 * passes unchanged), cut off midway between PASS_HZ and the output's Nyquist frequency.
 */
function speechBandTaps(inputRate: number, factor: number): Float64Array {
  const stopHz = inputRate / factor / 2;
  const transition = (2 * Math.PI * (stopHz - PASS_HZ)) / inputRate;
  const order = Math.ceil((ATTENUATION_DB - 8) / (2.285 * transition));
  const half = Math.ceil(order / 2);
  const beta = 0.1102 * (ATTENUATION_DB - 8.7);
  const cutoff = (PASS_HZ + stopHz) / inputRate;
  const taps = new Float64Array(2 * half + 1);
  const norm = besselI0(beta);
  let sum = 0;
  for (let index = 0; index < taps.length; index += 1) {
    const offset = index - half;
    const ratio = offset / half;
    const window = besselI0(beta * Math.sqrt(1 - ratio * ratio)) / norm;
    const x = Math.PI * cutoff * offset;
    const sinc = offset === 0 ? 1 : Math.sin(x) / x;
    taps[index] = sinc * window;
    sum += taps[index] ?? 0;
  }
  for (let index = 0; index < taps.length; index += 1) taps[index] = (taps[index] ?? 0) / sum;
  return taps;
}

export class SpeechBandDecimator {
  readonly factor: number;
  /** Taps on either side of the centre one: the input frames an output reads beyond its own. */
  readonly reach: number;
  readonly #taps: Float64Array;

  /** Divides `inputRate` by `factor` (2 or more), whose output's Nyquist frequency is above PASS_HZ. */
  constructor(inputRate: number, factor: number) {
    if (!Number.isInteger(factor) || factor < 2 || inputRate / factor / 2 <= PASS_HZ) {
      throw new RangeError(`cannot divide ${inputRate} Hz by ${factor} and keep ${PASS_HZ} Hz`);
    }
    this.factor = factor;
    this.#taps = speechBandTaps(inputRate, factor);
    this.reach = (this.#taps.length - 1) / 2;
  }

  /** Outputs of an input of `frames` frames: one per `factor`, the first at frame 0. */
  outputLength(frames: number): number {
    return Math.ceil(frames / this.factor);
  }

  /** The input frames outputs `from` to `to` (exclusive) read, whether the input has them or not. */
  inputSpan(from: number, to: number): { readonly first: number; readonly end: number } {
    return { first: from * this.factor - this.reach, end: (to - 1) * this.factor + this.reach + 1 };
  }

  /**
   * `count` outputs from `input`, the frames `inputSpan` names for them (taken as silent outside
   * the recording: its first and last milliseconds fade).
   */
  decimate(input: Float32Array, count: number): Float32Array {
    const output = new Float32Array(Math.max(0, count));
    const taps = this.#taps;
    const length = taps.length;
    for (let index = 0; index < output.length; index += 1) {
      const start = index * this.factor;
      let sum = 0;
      for (let tap = 0; tap < length; tap += 1) {
        sum += (input[start + tap] ?? 0) * (taps[tap] ?? 0);
      }
      output[index] = sum;
    }
    return output;
  }
}
