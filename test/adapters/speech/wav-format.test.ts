import { describe, expect, it } from 'vitest';
import { readWavData, readWavLayout, wavHeader } from '../../../shared/adapters/speech/wav-format';
import { extensibleWav, tonePcm, wavFile } from '../../support/speech-audio';

const mono48k = { sampleRate: 48_000, channels: 1, sampleWidth: 2 };

/** RIFF/WAVE around `chunks`, each an id and its body (padded to an even size). */
function riffWave(chunks: readonly [string, Uint8Array, number?][]): Uint8Array {
  const parts = chunks.map(([id, body, size]) => {
    const part = new Uint8Array(8 + body.length + (body.length % 2));
    part.set([...id].map((letter) => letter.charCodeAt(0)));
    new DataView(part.buffer).setUint32(4, size ?? body.length, true);
    part.set(body, 8);
    return part;
  });
  const file = new Uint8Array(12 + parts.reduce((sum, part) => sum + part.length, 0));
  file.set([...'RIFF'].map((letter) => letter.charCodeAt(0)));
  new DataView(file.buffer).setUint32(4, file.length - 8, true);
  file.set(
    [...'WAVE'].map((letter) => letter.charCodeAt(0)),
    8,
  );
  let at = 12;
  for (const part of parts) {
    file.set(part, at);
    at += part.length;
  }
  return file;
}

/** The 16 bytes of a plain PCM fmt chunk of `format`. */
const fmtBody = (format: typeof mono48k) => wavHeader(format, 0).subarray(20, 36);

function shortFmtWav(): Uint8Array {
  return riffWave([
    ['fmt ', fmtBody(mono48k).subarray(0, 14)],
    ['data', tonePcm(0.01, 48_000)],
  ]);
}

function twoFmtWav(): Uint8Array {
  return riffWave([
    ['fmt ', fmtBody({ ...mono48k, sampleRate: 8_000 })],
    ['fmt ', fmtBody(mono48k)],
    ['data', tonePcm(0.01, 48_000)],
  ]);
}

describe('readWavLayout', () => {
  it('reads what wavHeader writes', () => {
    const pcm = tonePcm(0.25, 48_000);

    expect(readWavLayout(wavFile(pcm, mono48k))).toEqual({
      ok: true,
      value: { format: mono48k, dataOffset: 44, dataBytes: pcm.length, irregular: false },
    });
  });

  it('reads a WAVE_FORMAT_EXTENSIBLE file of PCM', () => {
    const layout = readWavLayout(extensibleWav(tonePcm(0.01, 16_000), 1));

    expect(layout).toMatchObject({
      ok: true,
      value: { format: { sampleRate: 16_000, channels: 2, sampleWidth: 2 }, dataOffset: 68 },
    });
  });

  it.each([
    ['an extensible file of floats', extensibleWav(tonePcm(0.01, 16_000), 3), 'invalid', /PCM/],
    [
      'an MP3 file',
      new TextEncoder().encode('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000xx'),
      'invalid',
      /RIFF/,
    ],
    ['a header cut short', wavHeader(mono48k, 10).subarray(0, 30), 'incomplete', /fmt/],
    [
      // A stream's first chunk may end there: its next chunk makes the header whole.
      'an extensible header cut inside its fmt chunk',
      extensibleWav(tonePcm(0.01, 16_000), 1).subarray(0, 40),
      'incomplete',
      /fmt/,
    ],
    ['eleven bytes', new Uint8Array(11), 'incomplete', /RIFF header/],
    ['a fmt chunk of 14 bytes (its fields read past it)', shortFmtWav(), 'invalid', /14 bytes/],
    ['two fmt chunks that disagree (8 and 48 kHz)', twoFmtWav(), 'invalid', /two fmt/],
  ])('refuses %s', (_case, bytes, reason, issue) => {
    const layout = readWavLayout(bytes);

    expect(layout).toMatchObject({ ok: false, reason });
    expect(layout.ok ? '' : layout.issue).toMatch(issue);
  });

  it('says a streamed WAV (data size 0xFFFFFFFF) has no known length', () => {
    const header = wavHeader(mono48k, 0xffff_ffff - 36);
    new DataView(header.buffer).setUint32(40, 0xffff_ffff, true);

    expect(readWavLayout(header)).toMatchObject({ ok: true, value: { dataBytes: null } });
  });
});

describe('readWavData', () => {
  const samples = Uint8Array.from({ length: 10 }, (_, index) => index + 1);
  const withSize = (dataBytes: number) => {
    const file = new Uint8Array(44 + samples.length);
    file.set(wavHeader(mono48k, samples.length));
    new DataView(file.buffer).setUint32(40, dataBytes, true);
    file.set(samples, 44);
    return file;
  };
  const trailing = riffWave([
    ['fmt ', fmtBody(mono48k)],
    ['data', samples.subarray(0, 4)],
    ['LIST', new Uint8Array(6)],
  ]);

  it.each([
    ['the data chunk as its size says', trailing, samples.subarray(0, 4)],
    ['to the end of the file when the size says more (never patched)', withSize(1_000), samples],
    [
      'to the end of the file when the size is unknown (0xFFFFFFFF)',
      withSize(0xffff_ffff),
      samples,
    ],
    ['to the end of the file when the size is unknown (0)', withSize(0), samples],
  ])('reads %s', (_case, bytes, expected) => {
    const read = readWavData(bytes);

    expect(read).toMatchObject({ ok: true, value: { format: mono48k } });
    expect(read.ok ? [...read.value.data] : null).toEqual([...expected]);
  });

  /** fmt, a 3-byte LIST chunk with or without its pad byte, then `dataBytes` of samples. */
  const withOddList = (dataBytes: number, padded: boolean) => {
    const file = riffWave([
      ['fmt ', fmtBody(mono48k)],
      ['LIST', new Uint8Array([0x61, 0x62, 0x63])],
      ['data', new Uint8Array(dataBytes)],
    ]);
    if (padded) return file;
    const padAt = 12 + 8 + 16 + 8 + 3;
    const unpadded = Buffer.concat([file.subarray(0, padAt), file.subarray(padAt + 1)]);
    unpadded.writeUInt32LE(unpadded.length - 8, 4);
    return new Uint8Array(unpadded);
  };

  // The data size's low byte sits where a padded reading would look for an id's fourth letter:
  // 0x00 and 0xA8 are no letter, 0x40 ('@') and 0x64 ('d') are.
  it.each([32_000, 16_040, 32_064, 32_100])(
    'reads an odd chunk, padded or not, before data of %i bytes',
    (dataBytes) => {
      expect(readWavData(withOddList(dataBytes, true))).toMatchObject({
        ok: true,
        value: { data: { length: dataBytes }, irregular: false },
      });
      expect(readWavData(withOddList(dataBytes, false))).toMatchObject({
        ok: true,
        value: { data: { length: dataBytes }, irregular: true },
      });
    },
  );

  it('says why a file is no WAV, as readWavLayout does', () => {
    expect(readWavData(new Uint8Array(11))).toMatchObject({ ok: false, reason: 'incomplete' });
  });
});
