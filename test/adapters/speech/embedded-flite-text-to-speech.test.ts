import { describe, expect, it, vi } from 'vitest';
import {
  compileFlite,
  EmbeddedFliteTextToSpeech,
} from '../../../shared/adapters/speech/embedded-flite-text-to-speech';
import {
  FliteThread,
  FliteWorkers,
  type SpokenPiece,
} from '../../../shared/adapters/speech/flite-workers';
import {
  FIRST_PIECE_SECONDS,
  MAX_SECONDS_PER_CHARACTER,
  SPEECH_PIECE_LIMITS,
  SPOKEN_OVERRUN_SECONDS,
} from '../../../shared/adapters/speech/speech-pieces';
import { SpeechBusyError } from '../../../shared/ports/speech';
import { FakeTiming } from '../../support/fake-timing';
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

describe('EmbeddedFliteTextToSpeech bounds', () => {
  const DIGITS = '7'.repeat(3_000);

  it('stops the thread when the reader leaves after the first chunk', async () => {
    // Prepare
    const workers = new FliteWorkers({ size: 1, module: compileFlite });
    const tts = new EmbeddedFliteTextToSpeech({ voice: 'slt', workers });
    const speech = await tts.synthesize(DIGITS, options);
    const iterator = speech.chunks[Symbol.asyncIterator]();

    // Act
    await iterator.next();
    await iterator.return?.();

    // Assess: the synthesis gives its slot back, and its thread was stopped, not kept.
    await vi.waitFor(() => expect(workers.lentCount).toBe(0), { timeout: 10_000 });
    expect(workers.idleCount).toBe(0);
  });

  it('fails a synthesis past its deadline as a timeout, and the next one works', async () => {
    // Prepare
    const timing = new FakeTiming({ instantSleeps: false });
    const workers = new FliteWorkers({ size: 1, module: compileFlite });
    const tts = new EmbeddedFliteTextToSpeech({ voice: 'slt', workers, timing });
    const speech = await tts.synthesize(DIGITS, options);

    // Act
    timing.advance(options.timeoutMs);
    const read = collect(speech.chunks);

    // Assess
    await expect(read).rejects.toMatchObject({ failure: 'timeout' });
    const next = await new EmbeddedFliteTextToSpeech({ voice: 'slt', workers }).synthesize(
      'Done.',
      options,
    );
    expect((await collect(next.chunks)).bytes.length).toBeGreaterThan(0);
  });

  it('answers busy when every thread is lent', async () => {
    // Prepare
    const workers = new FliteWorkers({ size: 1, module: compileFlite });
    const tts = new EmbeddedFliteTextToSpeech({ voice: 'slt', workers });
    const first = await tts.synthesize(DIGITS, options);

    // Act
    const second = tts.synthesize('Hello.', options);

    // Assess
    await expect(second).rejects.toBeInstanceOf(SpeechBusyError);
    await collect(first.chunks);
  });

  it('makes little speech past the spoken limit only to throw it away', async () => {
    // Prepare: a piece that fills the limit, then pieces of ampersands (0.5 s each: a piece of
    // 120 lasts 60 s), spoken and thrown away once past it.
    const groups = (character: string) =>
      Array.from({ length: 5 }, () => character.repeat(SPEECH_PIECE_LIMITS.tokenCharacters)).join(
        ' ',
      );
    const text = `Hi. ${groups('=')}. ${groups('&')}. ${groups('&')}`;
    const speak = vi.spyOn(FliteThread.prototype, 'speak');
    const tts = new EmbeddedFliteTextToSpeech({
      voice: 'slt',
      workers: new FliteWorkers({ size: 1, module: compileFlite }),
    });

    // Act
    const speech = await tts.synthesize(text, options);
    const { bytes } = await collect(speech.chunks);
    const pieces = await Promise.all(
      speak.mock.results.map((result) => result.value as Promise<SpokenPiece>),
    );
    speak.mockRestore();

    // Assess: all Flite made, less what was sent, was made for nothing.
    const made = pieces.reduce((sum, piece) => sum + piece.pcm.length, 0);
    const thrownAwaySeconds = (made - bytes.length) / 32_000;
    expect(speech.cut()).toBe(true);
    expect(thrownAwaySeconds).toBeLessThanOrEqual(
      Math.max(
        SPOKEN_OVERRUN_SECONDS,
        SPEECH_PIECE_LIMITS.tokenCharacters * MAX_SECONDS_PER_CHARACTER,
      ),
    );
  });

  it('makes the first audio of a long number from a short first piece', async () => {
    // Prepare: one sentence of 3,000 digits; its first piece was 120 of them (34 s of speech,
    // made whole before the first byte).
    const speak = vi.spyOn(FliteThread.prototype, 'speak');
    const tts = new EmbeddedFliteTextToSpeech({
      voice: 'slt',
      workers: new FliteWorkers({ size: 1, module: compileFlite }),
    });

    // Act
    const speech = await tts.synthesize(DIGITS, options);
    const first = (await speak.mock.results[0]?.value) as SpokenPiece;
    speak.mockRestore();
    await collect(speech.chunks);

    // Assess
    expect(first.pcm.length / 32_000).toBeLessThanOrEqual(
      Math.max(
        FIRST_PIECE_SECONDS,
        SPEECH_PIECE_LIMITS.tokenCharacters * MAX_SECONDS_PER_CHARACTER,
      ),
    );
  });
});
