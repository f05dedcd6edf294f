import { describe, expect, it } from 'vitest';
import {
  compileFlite,
  EmbeddedFliteTextToSpeech,
} from '../../../shared/adapters/speech/embedded-flite-text-to-speech';
import { collect } from '../../support/speech-audio';

const options = { timeoutMs: 60_000 };

/** Root mean square of 16-bit little-endian samples: 0 is silence, 32767 a full-scale square. */
function rms(pcm: Uint8Array): number {
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  let sum = 0;
  const samples = Math.floor(pcm.length / 2);
  for (let index = 0; index < samples; index += 1) sum += view.getInt16(index * 2, true) ** 2;
  return Math.sqrt(sum / samples);
}

describe('EmbeddedFliteTextToSpeech', () => {
  it.each(['slt', 'kal16'])(
    'speaks a sentence with the %s voice as 16 kHz mono PCM',
    async (voice) => {
      // Act
      const speech = await new EmbeddedFliteTextToSpeech({ voice }).synthesize(
        'Tomorrow will be sunny, with a high of twenty degrees.',
        options,
      );
      const { bytes, sizes } = await collect(speech.chunks);

      // Assess
      expect(speech.format).toEqual({ sampleRate: 16_000, channels: 1, sampleWidth: 2 });
      const seconds = bytes.length / 32_000;
      expect(seconds).toBeGreaterThan(1.5);
      expect(seconds).toBeLessThan(8);
      expect(rms(bytes)).toBeGreaterThan(300);
      expect(sizes.length).toBeGreaterThan(1);
    },
  );

  it('speaks longer text for longer', async () => {
    const tts = new EmbeddedFliteTextToSpeech({ voice: 'slt' });

    const short = await collect((await tts.synthesize('Done.', options)).chunks);
    const long = await collect(
      (
        await tts.synthesize(
          'The kitchen lights are on, the front door is locked, and the oven is preheating.',
          options,
        )
      ).chunks,
    );

    expect(long.bytes.length).toBeGreaterThan(3 * short.bytes.length);
  });

  it('takes text that looks like an option as text', async () => {
    const speech = await new EmbeddedFliteTextToSpeech({ voice: 'slt' }).synthesize(
      '-voice awb --help',
      options,
    );
    const { bytes } = await collect(speech.chunks);

    expect(rms(bytes)).toBeGreaterThan(300);
  });

  it('compiles the module once per process', async () => {
    expect(await compileFlite()).toBe(await compileFlite());
  });
});
