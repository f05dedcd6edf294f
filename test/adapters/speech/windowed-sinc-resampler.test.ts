import { describe, expect, it } from 'vitest';
import { mixToMono, recognizerInput } from '../../../shared/adapters/speech/recognizer-input';
import { resample, resampledLength } from '../../../shared/adapters/speech/windowed-sinc-resampler';
import type { Recording } from '../../../shared/ports/speech';
import { toneWav } from '../../support/speech-audio';
import { middle, power, powerAt } from '../../support/tone-power';

const tone = (hz: number, amplitude = 0.5) => ({ hz, amplitude });

function recordingOf(wav: Uint8Array, sampleRate: number, channels: number): Recording {
  const frames = (wav.length - 44) / (2 * channels);
  return {
    wav,
    format: { sampleRate, channels, sampleWidth: 2 },
    durationSeconds: frames / sampleRate,
  };
}

describe('resample', () => {
  it.each([
    [48_000, 16_000, 48_000, 16_000],
    [48_000, 16_000, 48_001, 16_000],
    [44_100, 16_000, 44_100, 16_000],
    [8_000, 16_000, 8_000, 16_000],
    [192_000, 16_000, 1_000, 83],
    [11_025, 16_000, 11_025, 16_000],
  ])('%i Hz to %i Hz: %i samples become %i', (from, to, input, expected) => {
    // Act
    const output = resample(new Float32Array(input), from, to);

    // Assess
    expect(output.length).toBe(expected);
    expect(resampledLength(input, from, to)).toBe(expected);
  });

  it.each([
    [48_000, 1_000],
    [48_000, 3_000],
    [44_100, 1_000],
    [8_000, 1_000],
    [192_000, 2_500],
  ])('from %i Hz keeps a %i Hz tone at its frequency and level', (from, hz) => {
    // Prepare
    const input = mixToMono(recordingOf(toneWav(0.5, from, [[tone(hz)]]), from, 1));

    // Act
    const output = middle(resample(input, from, 16_000), 16_000);

    // Assess: all of the power is at that frequency, and it is the tone's (0.5² / 2).
    expect(power(output)).toBeCloseTo(0.125, 2);
    expect(powerAt(output, 16_000, hz) / power(output)).toBeGreaterThan(0.99);
  });

  it.each([
    [48_000, 9_000],
    [48_000, 12_000],
    [48_000, 20_000],
    [96_000, 30_000],
  ])('from %i Hz removes a %i Hz tone (above the new Nyquist): no alias is left', (from, hz) => {
    // Prepare
    const input = mixToMono(recordingOf(toneWav(0.5, from, [[tone(hz)]]), from, 1));

    // Act
    const output = middle(resample(input, from, 16_000), 16_000);

    // Assess: at least 60 dB down (naive decimation would keep all of it, folded).
    expect(power(output) / 0.125).toBeLessThan(1e-6);
  });

  it.each([
    [48_000, 16_000],
    [44_100, 16_000],
    [8_000, 16_000],
    [11_025, 16_000],
    [32_000, 16_000],
  ])(
    'from %i Hz to %i Hz, whole rates (a filter a phase) give the sums of the general path',
    (from, to) => {
      // Prepare: a rate a billionth of a hertz off is not whole: every tap read from the table.
      const input = mixToMono(
        recordingOf(toneWav(0.3, from, [[tone(440, 0.3), tone(3_000, 0.2)]]), from, 1),
      );

      // Act
      const byPhases = resample(input, from, to);
      const general = resample(input, from + 1e-9, to);

      // Assess
      expect(byPhases.length).toBe(general.length);
      const worst = byPhases.reduce(
        (most, value, index) => Math.max(most, Math.abs(value - (general[index] ?? 0))),
        0,
      );
      expect(worst).toBeLessThan(1e-6);
    },
  );

  it('keeps speech and drops what lies above 8 kHz from the same recording', () => {
    // Prepare
    const input = mixToMono(
      recordingOf(toneWav(0.5, 48_000, [[tone(440, 0.3), tone(11_000, 0.3)]]), 48_000, 1),
    );

    // Act
    const output = middle(resample(input, 48_000, 16_000), 16_000);

    // Assess
    expect(power(output)).toBeCloseTo(0.045, 3);
    expect(powerAt(output, 16_000, 440) / power(output)).toBeGreaterThan(0.99);
    // 11 kHz would fold to 5 kHz.
    expect(powerAt(output, 16_000, 5_000)).toBeLessThan(1e-7);
  });
});

describe('recognizerInput', () => {
  it('mixes a 48 kHz stereo recording to mono (the channels averaged) at 16 kHz', () => {
    // Prepare: the left channel a tone, the right one silent.
    const wav = toneWav(1, 48_000, [[tone(1_000)], []]);

    // Act
    const samples = recognizerInput(recordingOf(wav, 48_000, 2));

    // Assess
    expect(samples.length).toBe(16_000);
    expect(power(middle(samples, 16_000))).toBeCloseTo(0.125 / 4, 3);
  });

  it.each([
    [96_000, 2],
    [192_000, 4],
    [176_400, 4],
    [100_000, 3],
  ])(
    'brings %i Hz down by %i first, then to 16 kHz: speech kept, everything above 8 kHz gone',
    (rate) => {
      // Prepare: speech-band tones, and three that would fold into it (11 kHz to 5 kHz at 16 kHz;
      // 30 kHz and 44 kHz into it when divided carelessly).
      const tones = [
        tone(440, 0.3),
        tone(3_000, 0.2),
        tone(11_000, 0.1),
        tone(30_000, 0.1),
        tone(44_000, 0.1),
      ];
      const wav = toneWav(0.5, rate, [tones]);

      // Act
      const samples = middle(recognizerInput(recordingOf(wav, rate, 1)), 16_000);

      // Assess: the speech tones' power (0.3² / 2 + 0.2² / 2), nothing else.
      expect(power(samples)).toBeCloseTo(0.065, 3);
      expect(
        (powerAt(samples, 16_000, 440) + powerAt(samples, 16_000, 3_000)) / power(samples),
      ).toBeGreaterThan(0.9999);
    },
  );

  it('cancels channels in opposite phase: the mix is an average, not one channel', () => {
    // Prepare
    const wav = toneWav(0.5, 48_000, [[tone(1_000)], [tone(1_000, -0.5)]]);

    // Act
    const samples = recognizerInput(recordingOf(wav, 48_000, 2));

    // Assess
    expect(power(samples)).toBeLessThan(1e-8);
  });

  it('stops at the end of the file when the data chunk says more (a recorder that never patched it)', () => {
    // Prepare
    const wav = toneWav(0.25, 16_000, [[tone(1_000)]]);
    new DataView(wav.buffer).setUint32(40, 0xffff_fff0, true);

    // Act
    const samples = recognizerInput(recordingOf(wav, 16_000, 1));

    // Assess
    expect(samples.length).toBe(4_000);
  });
});
