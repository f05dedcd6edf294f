import { describe, expect, it } from 'vitest';
import {
  PASS_HZ,
  SpeechBandDecimator,
} from '../../../shared/adapters/speech/speech-band-decimator';
import { middle, power, powerAt } from '../../support/tone-power';

/** `seconds` of a sine of `hz` at `rate`, amplitude 0.5 (power 0.125). */
function sine(seconds: number, rate: number, hz: number): Float32Array {
  const samples = new Float32Array(Math.round(seconds * rate));
  for (let index = 0; index < samples.length; index += 1) {
    samples[index] = 0.5 * Math.sin((2 * Math.PI * hz * index) / rate);
  }
  return samples;
}

/** Outputs `from` to `to` of `input`, the frames each reads cut from it (silence outside it). */
function decimateRange(
  decimator: SpeechBandDecimator,
  input: Float32Array,
  from: number,
  to: number,
): Float32Array {
  const { first, end } = decimator.inputSpan(from, to);
  const span = new Float32Array(end - first);
  for (let frame = Math.max(0, first); frame < Math.min(end, input.length); frame += 1) {
    span[frame - first] = input[frame] ?? 0;
  }
  return decimator.decimate(span, to - from);
}

const decimateAll = (decimator: SpeechBandDecimator, input: Float32Array) =>
  decimateRange(decimator, input, 0, decimator.outputLength(input.length));

/** The (rate, factor) pairs transcribe-audio.ts makes of 48-192 kHz, the edges included. */
const DIVISIONS = [
  [96_000, 2],
  [192_000, 4],
  [88_200, 2],
  [176_400, 4],
  [144_000, 3],
  [100_000, 3],
  [50_000, 2],
] as const;

describe('SpeechBandDecimator', () => {
  it.each(
    DIVISIONS.flatMap(([rate, factor]) =>
      [300, 1_000, 4_000, PASS_HZ].map((hz) => [rate, factor, hz] as const),
    ),
  )('%i Hz divided by %i keeps a %i Hz tone at its frequency and level', (rate, factor, hz) => {
    // Prepare
    const decimator = new SpeechBandDecimator(rate, factor);

    // Act
    const output = middle(decimateAll(decimator, sine(0.5, rate, hz)), rate / factor);

    // Assess: within 0.01 dB, all of it at that frequency.
    expect(power(output) / 0.125).toBeCloseTo(1, 3);
    expect(powerAt(output, rate / factor, hz) / power(output)).toBeGreaterThan(0.9999);
  });

  it.each([
    [192_000, 4, 24_100],
    [192_000, 4, 30_000],
    [192_000, 4, 47_000],
    [192_000, 4, 72_000],
    [192_000, 4, 95_000],
    [96_000, 2, 24_100],
    [96_000, 2, 40_000],
    [144_000, 3, 24_100],
    [144_000, 3, 70_000],
    [50_000, 2, 12_600],
    [50_000, 2, 20_000],
  ])(
    '%i Hz divided by %i removes a %i Hz tone (above the new Nyquist): no alias is left',
    (rate, factor, hz) => {
      // Prepare
      const decimator = new SpeechBandDecimator(rate, factor);

      // Act
      const output = middle(decimateAll(decimator, sine(0.5, rate, hz)), rate / factor);

      // Assess: at least 70 dB down (keeping every factor-th sample would keep all of it, folded).
      expect(power(output) / 0.125).toBeLessThan(1e-7);
    },
  );

  it('computes any range of outputs on its own: in chunks, the same samples as at once', () => {
    // Prepare
    const decimator = new SpeechBandDecimator(192_000, 4);
    const input = sine(0.2, 192_000, 1_700);
    const whole = decimateAll(decimator, input);

    // Act
    const bounds = [0, 1, 480, 2_000, 4_799, decimator.outputLength(input.length)];
    const chunks = bounds.slice(1).map((to, index) => {
      return decimateRange(decimator, input, bounds[index] ?? 0, to);
    });

    // Assess
    expect(whole.length).toBe(9_600);
    expect(Float32Array.from(chunks.flatMap((chunk) => [...chunk]))).toEqual(whole);
  });

  it('passes a constant unchanged (the taps sum to 1) and fades at the recording’s ends', () => {
    // Prepare
    const decimator = new SpeechBandDecimator(96_000, 2);

    // Act
    const output = decimateAll(decimator, new Float32Array(9_600).fill(0.25));

    // Assess
    expect(output.length).toBe(4_800);
    expect(output[2_400]).toBeCloseTo(0.25, 6);
    // The first output reads half its taps from before the recording: silence.
    expect(output[0]).toBeGreaterThan(0.125);
    expect(output[0]).toBeLessThan(0.2);
  });

  it.each([
    [48_000, 1],
    [48_000, 3],
    [96_000, 2.5],
  ])(
    'refuses to divide %i Hz by %s: no whole factor, or the speech band would not fit',
    (rate, factor) => {
      expect(() => new SpeechBandDecimator(rate, factor)).toThrow(RangeError);
    },
  );
});
