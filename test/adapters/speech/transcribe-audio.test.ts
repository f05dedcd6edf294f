import { describe, expect, it } from 'vitest';
import {
  TRANSCRIBE_CHUNK_MS,
  transcribeAudio,
} from '../../../shared/adapters/speech/transcribe-audio';
import type { Recording } from '../../../shared/ports/speech';
import { toneWav } from '../../support/speech-audio';
import { middle, power, powerAt } from '../../support/tone-power';

type Tone = { readonly hz: number; readonly amplitude: number };

function recordingOf(
  seconds: number,
  sampleRate: number,
  channelTones: readonly Tone[][],
): Recording {
  const channels = channelTones.length;
  return {
    wav: toneWav(seconds, sampleRate, channelTones),
    format: { sampleRate, channels, sampleWidth: 2 },
    durationSeconds: seconds,
  };
}

/** Every chunk's 16-bit samples, joined, as floats; and the chunks' sizes in bytes. */
function sent(recording: Recording): { rate: number; samples: Float32Array; sizes: number[] } {
  const audio = transcribeAudio(recording);
  const chunks = [...audio.chunks(TRANSCRIBE_CHUNK_MS)];
  const bytes = Buffer.concat(chunks);
  const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  return {
    rate: audio.sampleRate,
    samples: Float32Array.from(pcm, (value) => value / 32_768),
    sizes: chunks.map((chunk) => chunk.length),
  };
}

describe('transcribeAudio', () => {
  it.each([
    [44_100, 1, 44_100],
    [48_000, 1, 48_000],
    [48_000, 2, 48_000],
    [8_000, 3, 8_000],
    [50_000, 1, 25_000],
    [88_200, 1, 44_100],
    [96_000, 2, 48_000],
    [100_001, 1, 33_334],
    [144_000, 1, 48_000],
    [176_400, 1, 44_100],
    [192_000, 2, 48_000],
  ])(
    'sends %i Hz of %i channel(s) as mono at %i Hz (a whole factor down from above 48 kHz)',
    (rate, channels, expected) => {
      // Prepare
      const recording = recordingOf(
        0.25,
        rate,
        Array.from({ length: channels }, () => []),
      );

      // Act
      const { rate: sentRate, samples } = sent(recording);

      // Assess
      expect(sentRate).toBe(expected);
      expect(samples.length).toBe(Math.ceil((0.25 * rate) / Math.ceil(rate / 48_000)));
    },
  );

  it('sends 192 kHz stereo as the speech band at 48 kHz in 100 ms chunks: ultrasound removed, not folded', async () => {
    // Prepare: a 1 kHz tone in both channels; 30 kHz (would fold to 18 kHz) and 44 kHz (to 4 kHz) in one.
    const left = [
      { hz: 1_000, amplitude: 0.4 },
      { hz: 30_000, amplitude: 0.2 },
    ];
    const right = [
      { hz: 1_000, amplitude: 0.4 },
      { hz: 44_000, amplitude: 0.2 },
    ];

    // Act
    const { rate, samples, sizes } = sent(recordingOf(1.05, 192_000, [left, right]));

    // Assess
    expect(rate).toBe(48_000);
    expect(sizes).toEqual([...Array.from({ length: 10 }, () => 9_600), 4_800]);
    const kept = middle(samples, rate);
    expect(power(kept) / (0.4 ** 2 / 2)).toBeCloseTo(1, 2);
    expect(powerAt(kept, rate, 1_000) / power(kept)).toBeGreaterThan(0.9999);
    expect(powerAt(kept, rate, 4_000)).toBeLessThan(1e-9);
    expect(powerAt(kept, rate, 18_000)).toBeLessThan(1e-9);
  });

  it('makes each chunk when it is asked for, from the recording as it is then: nothing ahead', () => {
    // Prepare
    const recording = recordingOf(0.5, 96_000, [[{ hz: 1_000, amplitude: 0.5 }]]);
    const chunks = transcribeAudio(recording).chunks(TRANSCRIBE_CHUNK_MS);
    const first = chunks.next().value;

    // Act: the samples after the first chunk's are silenced once it was made.
    recording.wav.fill(0, 44 + 2 * 9_600 + 2 * 64);
    const rest = Buffer.concat([...chunks]);

    // Assess: the first chunk holds the tone; the rest was made after, from the silence.
    expect(first?.length).toBe(9_600);
    expect(new Int16Array(first?.buffer ?? new ArrayBuffer(0)).some((value) => value !== 0)).toBe(
      true,
    );
    expect(rest.subarray(2 * 100).every((byte) => byte === 0)).toBe(true);
  });
});
