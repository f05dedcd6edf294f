/**
 * Band-limited resampling by a Kaiser-windowed sinc (J. O. Smith's bandlimited interpolation):
 * each output sample is the input convolved with a low-pass filter centred on its exact time, so
 * any pair of rates works (48 kHz, 44.1 kHz, 8 kHz to 16 kHz), and what lies above the lower of
 * the two Nyquist frequencies is removed instead of folded back into speech.
 *
 * Cost: `2 * ZERO_CROSSINGS * max(1, from / to)` multiply-adds per output sample (192 from
 * 48 kHz to 16 kHz), read from a table: no trigonometry per tap; between whole rates each phase's
 * taps are read once and reused. recognizer-input.ts divides a rate above 48 kHz by a whole factor
 * first, so this filter never runs on more than 48 kHz.
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

/** The zeroth-order modified Bessel function of the first kind, by its power series (Kaiser's window). */
export function besselI0(x: number): number {
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

/** Output phases a filter table may be kept for: 44.1 to 16 kHz has 160, 11.025 kHz 640. */
const MOST_PHASES = 1_024;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * `samples` at `from` Hz as `to` Hz. The input is taken as silent outside its ends, so the first
 * and last few milliseconds fade as the filter's window leaves the recording.
 *
 * Between two whole rates the outputs' positions between input samples repeat every
 * `to / gcd(from, to)` outputs (once for 48 to 16 kHz, 160 times for 44.1 kHz), so each phase's
 * taps are read from the table once and every output is a plain dot product: 3-4 times faster
 * than reading every tap from the table, the same sums.
 */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples.slice();
  const output = new Float32Array(resampledLength(samples.length, from, to));
  const step = from / to;
  // The filter's cutoff relative to the input rate; crossings are spaced 1/scale inputs apart.
  const scale = Math.min(1, to / from) * CUTOFF;
  const halfWidth = ZERO_CROSSINGS / scale;
  const tableStep = scale * TABLE_RESOLUTION;
  const tap = (distance: number) => {
    const position = Math.abs(distance) * tableStep;
    const whole = Math.floor(position);
    const low = KERNEL[whole] ?? 0;
    const high = KERNEL[whole + 1] ?? 0;
    return low + (high - low) * (position - whole);
  };
  const whole = Number.isInteger(from) && Number.isInteger(to);
  const phases = whole ? to / gcd(from, to) : Number.POSITIVE_INFINITY;
  if (phases <= MOST_PHASES) {
    resampleByPhases(samples, output, { from, to, phases, halfWidth, scale, tap });
    return output;
  }
  const last = samples.length - 1;
  for (let index = 0; index < output.length; index += 1) {
    const time = index * step;
    const first = Math.max(0, Math.ceil(time - halfWidth));
    const end = Math.min(last, Math.floor(time + halfWidth));
    let sum = 0;
    for (let at = first; at <= end; at += 1) sum += (samples[at] ?? 0) * tap(time - at);
    output[index] = sum * scale;
  }
  return output;
}

/** `resample` with each phase's taps computed once (`phases` of them, outputs cycling through). */
function resampleByPhases(
  samples: Float32Array,
  output: Float32Array,
  filter: {
    readonly from: number;
    readonly to: number;
    readonly phases: number;
    readonly halfWidth: number;
    readonly scale: number;
    readonly tap: (distance: number) => number;
  },
): void {
  const { from, to, phases, halfWidth, scale, tap } = filter;
  // Output p + n·phases lies at input n·stride + p·from/to: whole numbers kept whole, so no
  // rounding of a float time ever moves an output by a sample.
  const stride = (from * phases) / to;
  const wholes: number[] = [];
  const weights: Float64Array[] = [];
  for (let phase = 0; phase < phases; phase += 1) {
    const wholePart = Math.floor((phase * from) / to);
    const fraction = (phase * from - wholePart * to) / to;
    const first = Math.ceil(fraction - halfWidth);
    const end = Math.floor(fraction + halfWidth);
    const taps = new Float64Array(end - first + 1);
    for (let at = first; at <= end; at += 1) taps[at - first] = tap(fraction - at) * scale;
    wholes.push(wholePart + first);
    weights.push(taps);
  }
  const last = samples.length - 1;
  for (let index = 0; index < output.length; index += 1) {
    const phase = index % phases;
    const taps = weights[phase] ?? new Float64Array(0);
    const base = ((index - phase) / phases) * stride + (wholes[phase] ?? 0);
    // Only the taps whose input lies within the recording: outside it is silence.
    const start = Math.max(0, -base);
    const end = Math.min(taps.length - 1, last - base);
    let sum = 0;
    for (let at = start; at <= end; at += 1) sum += (samples[base + at] ?? 0) * (taps[at] ?? 0);
    output[index] = sum;
  }
}
