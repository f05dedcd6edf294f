import { describe, expect, it } from 'vitest';
import {
  PROVIDER_SPEECH_LIMITS,
  readSpeechStream,
  SPEECH_READS,
  spokenBytesLimit,
} from '../../../shared/adapters/speech/speech-stream';
import { pieceLimit } from '../../../shared/adapters/system/body-reads';
import { SpeechFailure, SpeechProviderError } from '../../../shared/ports/speech';
import { collect, extensibleWav, tonePcm, wavFile } from '../../support/speech-audio';

const mono16k = { sampleRate: 16_000, channels: 1, sampleWidth: 2 };
const stereo = { sampleRate: 16_000, channels: 2, sampleWidth: 2 };

async function* pieces(bytes: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const size of sizes) {
    yield bytes.slice(at, at + size);
    at += size;
  }
  if (at < bytes.length) yield bytes.slice(at);
}

const handlers = (finished: string[]) => ({
  failure: (error: unknown) =>
    error instanceof SpeechProviderError
      ? error
      : new SpeechProviderError(SpeechFailure.unavailable, 'text_to_speech', String(error)),
  finish: () => {
    finished.push('finished');
  },
  interrupted: () => false,
});

describe('readSpeechStream', () => {
  it.each([
    ['mono', mono16k, [1, 3, 5, 7, 11, 13]],
    ['stereo', stereo, [3, 6, 1, 9, 2]],
  ])('hands on whole %s frames however the body is cut', async (_case, format, sizes) => {
    // Prepare
    const pcm = tonePcm(0.05, 16_000);
    const finished: string[] = [];

    // Act
    const speech = await readSpeechStream(
      pieces(pcm, sizes),
      { kind: 'pcm', format },
      handlers(finished),
    );
    const { bytes, sizes: sent } = await collect(speech.chunks);

    // Assess
    const frame = format.channels * format.sampleWidth;
    expect(sent.every((size) => size > 0 && size % frame === 0)).toBe(true);
    expect(sent.length).toBeGreaterThan(2);
    expect(Buffer.from(bytes)).toEqual(
      Buffer.from(pcm.subarray(0, pcm.length - (pcm.length % frame))),
    );
    expect(finished).toEqual(['finished']);
  });

  it('drops a last partial frame', async () => {
    const pcm = tonePcm(0.01, 16_000);
    const odd = Buffer.concat([pcm, Buffer.from([7])]);

    const speech = await readSpeechStream(
      pieces(odd, [5]),
      { kind: 'pcm', format: mono16k },
      handlers([]),
    );
    const { bytes } = await collect(speech.chunks);

    expect(Buffer.from(bytes)).toEqual(Buffer.from(pcm));
  });

  it('reads a WAV header given one byte at a time, with a chunk before data', async () => {
    // Prepare: a LIST chunk between fmt and data, as some servers write.
    const pcm = tonePcm(0.01, 22_050);
    const file = wavFile(pcm, { ...mono16k, sampleRate: 22_050 });
    const list = Buffer.concat([
      Buffer.from('LIST'),
      Buffer.from([4, 0, 0, 0]),
      Buffer.from('INFO'),
    ]);
    const withList = Buffer.concat([file.subarray(0, 36), list, file.subarray(36)]);

    // Act
    const speech = await readSpeechStream(
      pieces(
        withList,
        Array.from({ length: 60 }, () => 1),
      ),
      { kind: 'wav' },
      handlers([]),
    );
    const { bytes } = await collect(speech.chunks);

    // Assess
    expect(speech.format).toEqual({ sampleRate: 22_050, channels: 1, sampleWidth: 2 });
    expect(Buffer.from(bytes)).toEqual(Buffer.from(pcm));
  });

  it('reads a WAVE_FORMAT_EXTENSIBLE header whose first piece ends inside its fmt chunk', async () => {
    // Prepare: its fmt chunk is 40 bytes from byte 20; the first piece ends before the sub-format.
    const pcm = tonePcm(0.01, 16_000);

    // Act
    const speech = await readSpeechStream(
      pieces(extensibleWav(pcm, 1), [40]),
      { kind: 'wav' },
      handlers([]),
    );
    const { bytes } = await collect(speech.chunks);

    // Assess
    expect(speech.format).toEqual(stereo);
    expect(Buffer.from(bytes)).toEqual(Buffer.from(pcm));
  });

  it.each([
    ['a WAV of float samples', Buffer.from(wavFile(tonePcm(0.01, 8_000), mono16k)).fill(3, 20, 21)],
    [
      'a WAV cut inside its header',
      Buffer.from(wavFile(tonePcm(0.01, 8_000), mono16k)).subarray(0, 30),
    ],
  ])('refuses %s as malformed, and finishes', async (_case, body) => {
    const finished: string[] = [];

    const error = await readSpeechStream(
      pieces(body, [7]),
      { kind: 'wav' },
      handlers(finished),
    ).catch((thrown: unknown) => thrown);

    expect(error).toMatchObject({ failure: 'malformed_reply' });
    expect(finished).toEqual(['finished']);
  });

  it('refuses speech dripped a byte at a time past its pieces, read no further', async () => {
    // Prepare: 10 s of 16 kHz PCM (within the spoken limit), one byte a piece.
    const pcm = new Uint8Array(10 * 32_000).fill(1);
    const finished: string[] = [];
    let read = 0;
    async function* drip(): AsyncGenerator<Uint8Array> {
      for (const byte of pcm) {
        read += 1;
        yield new Uint8Array([byte]);
      }
    }

    // Act
    const speech = await readSpeechStream(
      drip(),
      { kind: 'pcm', format: mono16k },
      handlers(finished),
    );
    const error = await collect(speech.chunks).catch((thrown: unknown) => thrown);

    // Assess: stopped once its reads pass what its bytes earn, long before its piece limit.
    expect(error).toMatchObject({ failure: SpeechFailure.malformedReply });
    expect(String(error)).toContain(`under ${SPEECH_READS.minAverageBytes} bytes each`);
    const earned = (reads: number) =>
      SPEECH_READS.allowance + Math.floor(reads / SPEECH_READS.minAverageBytes);
    expect(read).toBeLessThanOrEqual(earned(read) + 1);
    expect(read).toBeLessThan(
      pieceLimit(PROVIDER_SPEECH_LIMITS.wavHeaderBytes + spokenBytesLimit(mono16k)),
    );
    expect(finished).toEqual(['finished']);
  });

  it('takes real-sized pieces up to the spoken limit', async () => {
    // Prepare: the whole spoken limit in pieces of the least average size taken.
    const pcm = new Uint8Array(spokenBytesLimit(mono16k)).fill(1);
    const sizes = Array.from({ length: pcm.length / 1_024 }, () => 1_024);

    // Act
    const speech = await readSpeechStream(
      pieces(pcm, sizes),
      { kind: 'pcm', format: mono16k },
      handlers([]),
    );
    const { bytes } = await collect(speech.chunks);

    // Assess
    expect(bytes.length).toBe(pcm.length);
  });
});
