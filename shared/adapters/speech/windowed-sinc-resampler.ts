/**
 * Band-limited resampling by a Kaiser-windowed sinc (J. O. Smith's bandlimited interpolation):
 * each output sample is the input convolved with a low-pass filter centred on its exact time, so
 * any pair of rates works (48 kHz, 44.1 kHz, 8 kHz to 16 kHz), and what lies above the lower of
 * the two Nyquist frequencies is removed instead of folded back into speech.
 *
 * Cost: `2 * ZERO_CROSSINGS * max(1, from / to)` multiply-adds per output sample (192 from
 * 48 kHz to 16 kHz, 384 from 96 kHz, 768 from 192 kHz), read from a table: no trigonometry per tap.
 */

/** Half the filter's length, in zero crossings of the lower rate's sinc. */
const ZERO_CROSSINGS = 32;
/**
 * The filter's cutoff as a fraction of the lower Nyquist frequency. With 32 zero crossings and
 * this window the transition band is about 8% of it: the stopband begins at the new Nyquist
 * frequency (8 kHz from 48 kHz), and speech up to about 6.8 kHz passes.
 */
const CUTOFF = 0.92;
/** Kaiser β: about 80 dB of stopband attenuation. */
const KAISER_BETA = 8;
/** Table entries per zero crossing; linear interpolation between them errs below -100 dB. */
const TABLE_RESOLUTION = 512;

/** The zeroth-order modified Bessel function of the first kind, by its power series. */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k += 1) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
}

/** sinc(x)·kaiser(x) for x from 0 to ZERO_CROSSINGS, TABLE_RESOLUTION steps per crossing. */
const KERNEL = (() => {
  const length = ZERO_CROSSINGS * TABLE_RESOLUTION + 2;
  const table = new Float64Array(length);
  const norm = besselI0(KAISER_BETA);
  for (let index = 0; index < length; index += 1) {
    const x = index / TABLE_RESOLUTION;
    const ratio = Math.min(1, x / ZERO_CROSSINGS);
    const window = besselI0(KAISER_BETA * Math.sqrt(1 - ratio * ratio)) / norm;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    table[index] = sinc * window;
  }
  return table;
})();

/** Output samples for `inputLength` samples: the same duration, rounded to a whole sample. */
export const resampledLength = (inputLength: number, from: number, to: number): number =>
  Math.round((inputLength * to) / from);

/**
 * `samples` at `from` Hz as `to` Hz. The input is taken as silent outside its ends, so the first
 * and last few milliseconds fade as the filter's window leaves the recording.
 */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples.slice();
  const output = new Float32Array(resampledLength(samples.length, from, to));
  const step = from / to;
  // The filter's cutoff relative to the input rate; crossings are spaced 1/scale inputs apart.
  const scale = Math.min(1, to / from) * CUTOFF;
  const halfWidth = ZERO_CROSSINGS / scale;
  const tableStep = scale * TABLE_RESOLUTION;
  const last = samples.length - 1;
  for (let index = 0; index < output.length; index += 1) {
    const time = index * step;
    const first = Math.max(0, Math.ceil(time - halfWidth));
    const end = Math.min(last, Math.floor(time + halfWidth));
    let sum = 0;
    for (let at = first; at <= end; at += 1) {
      const position = Math.abs(time - at) * tableStep;
      const whole = Math.floor(position);
      const fraction = position - whole;
      const low = KERNEL[whole] ?? 0;
      const high = KERNEL[whole + 1] ?? 0;
      sum += (samples[at] ?? 0) * (low + (high - low) * fraction);
    }
    output[index] = sum * scale;
  }
  return output;
}
