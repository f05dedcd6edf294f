import { describe, expect, it } from 'vitest';
import { checkRecording } from '../../functions/http/request-body/recording-check';
import { asRf64, tonePcm, wavFile } from '../support/speech-audio';

const LIMITS = { maxSeconds: 60 };
const MONO_48K = { sampleRate: 48_000, channels: 1, sampleWidth: 2 };

/** A WAV with a `LIST` chunk between `fmt ` and `data`, as many recorders write it. */
function withListChunk(wav: Uint8Array): Uint8Array {
  const list = new Uint8Array(8 + 5 + 1);
  list.set(new TextEncoder().encode('LIST'), 0);
  new DataView(list.buffer).setUint32(4, 5, true);
  return Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
}

/** A WAV whose `data` size was never patched (a recorder that streamed it). */
function unpatched(wav: Uint8Array): Uint8Array {
  const copy = new Uint8Array(wav);
  new DataView(copy.buffer).setUint32(40, 0xffffffff, true);
  return copy;
}

describe('checkRecording', () => {
  it.each([
    ['the node’s default recording', wavFile(tonePcm(7, 48_000), MONO_48K), 7],
    [
      'one with a LIST chunk before its data',
      withListChunk(wavFile(tonePcm(1, 48_000), MONO_48K)),
      1,
    ],
    [
      'one whose data size was never patched',
      unpatched(wavFile(tonePcm(0.5, 48_000), MONO_48K)),
      0.5,
    ],
    [
      'a stereo one at 8 kHz',
      wavFile(tonePcm(2, 16_000), { sampleRate: 8_000, channels: 2, sampleWidth: 2 }),
      2,
    ],
  ])('takes %s, with its duration from the header', (_, wav, seconds) => {
    // Act
    const checked = checkRecording(wav, LIMITS);

    // Assess
    expect(checked.ok).toBe(true);
    if (checked.ok) {
      expect(checked.value.durationSeconds).toBeCloseTo(seconds, 3);
      expect(checked.value.wav).toBe(wav);
    }
  });

  it.each([
    ['not a WAV', new TextEncoder().encode('RIFX....WAVEjunk'), 'not_pcm_wav'],
    [
      '24-bit samples',
      wavFile(new Uint8Array(300), { ...MONO_48K, sampleWidth: 3 }),
      'unsupported_sample_width',
    ],
    ['4 kHz', wavFile(tonePcm(1, 4_000), { ...MONO_48K, sampleRate: 4_000 }), 'unsupported_format'],
    ['no samples', wavFile(new Uint8Array(0), MONO_48K), 'no_audio_data'],
    [
      'a header cut before its data',
      wavFile(tonePcm(1, 48_000), MONO_48K).subarray(0, 30),
      'no_audio_data',
    ],
    ['61 s', wavFile(tonePcm(61, 8_000), { ...MONO_48K, sampleRate: 8_000 }), 'too_long'],
  ])('refuses %s as %s, saying what is wrong', (_, wav, code) => {
    // Act
    const checked = checkRecording(wav, LIMITS);

    // Assess
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.issues.map((issue) => issue.code)).toEqual([code]);
      expect(checked.issues[0]?.message).toMatch(/\w{4,}/);
    }
  });
});

/** A `LIST` chunk of 5 bytes between `fmt ` and `data`, its pad byte left out (a writer's bug). */
function withUnpaddedListChunk(wav: Uint8Array): Uint8Array {
  const list = Buffer.alloc(8 + 5);
  list.write('LIST', 0, 'latin1');
  list.writeUInt32LE(5, 4);
  list.write('INFOx', 8, 'latin1');
  return Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
}

/** A chunk after the samples, as ffmpeg and many editors write their metadata. */
const TRAILING_LIST = Buffer.from('LIST\x04\x00\x00\x00INFO', 'latin1');

describe('checkRecording: WAV forms a strict reader may refuse', () => {
  const plain = wavFile(tonePcm(1, 16_000), { ...MONO_48K, sampleRate: 16_000 });

  it.each([
    ['RF64 (its data size in a ds64 chunk)', asRf64(plain, 'RF64')],
    ['BW64', asRf64(plain, 'BW64')],
    ['RF64 with a LIST chunk after its data', asRf64(plain, 'RF64', TRAILING_LIST)],
    ['a chunk of odd size without its pad byte', withUnpaddedListChunk(plain)],
  ])('takes %s, its samples handed on under a plain header', (_, wav) => {
    // Act
    const checked = checkRecording(wav, LIMITS);

    // Assess
    expect(checked.ok, JSON.stringify(checked)).toBe(true);
    if (checked.ok) {
      expect(checked.value.durationSeconds).toBe(1);
      expect(Buffer.from(checked.value.wav)).toEqual(Buffer.from(plain));
    }
  });

  // A data size whose low byte is printable (32 064: '@', 32 100: 'd') looks, at the padded place,
  // like the end of a chunk id: the missing pad byte must still be seen.
  it.each([32_064, 32_100])(
    'takes a chunk of odd size without its pad byte before %i bytes of samples',
    (dataBytes) => {
      // Prepare
      const recording = wavFile(new Uint8Array(dataBytes), { ...MONO_48K, sampleRate: 16_000 });

      // Act
      const checked = checkRecording(withUnpaddedListChunk(recording), LIMITS);

      // Assess
      expect(checked.ok, JSON.stringify(checked)).toBe(true);
      if (checked.ok) {
        expect(checked.value.durationSeconds).toBe(dataBytes / 32_000);
        expect(Buffer.from(checked.value.wav)).toEqual(Buffer.from(recording));
      }
    },
  );

  it('takes a RIFF with a LIST chunk after its data, as sent', () => {
    // Prepare
    const wav = Buffer.concat([plain, TRAILING_LIST]);
    new DataView(wav.buffer, wav.byteOffset).setUint32(4, wav.length - 8, true);

    // Act
    const checked = checkRecording(wav, LIMITS);

    // Assess
    expect(checked.ok).toBe(true);
    if (checked.ok) {
      expect(checked.value.durationSeconds).toBe(1);
      expect(checked.value.wav).toBe(wav);
    }
  });
});

/** An empty `data` chunk whose size reads as "unknown", and the chunks a writer put after it. */
function emptyDataThen(dataSize: number, riffSize: 'patched' | 0, ...after: Buffer[]): Buffer {
  const wav = Buffer.concat([
    wavFile(new Uint8Array(0), { ...MONO_48K, sampleRate: 16_000 }),
    ...after,
  ]);
  wav.writeUInt32LE(riffSize === 'patched' ? wav.length - 8 : 0, 4);
  wav.writeUInt32LE(dataSize, 40);
  return wav;
}

const ODD_LIST = Buffer.from('LIST\x05\x00\x00\x00INFOx', 'latin1');
const ID3 = Buffer.from('id3 \x0a\x00\x00\x00ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1');

describe('checkRecording: an empty data chunk followed by others', () => {
  it.each([
    ['size 0, then a LIST', emptyDataThen(0, 'patched', TRAILING_LIST)],
    ['size 0, RIFF size 0, then a LIST', emptyDataThen(0, 0, TRAILING_LIST)],
    ['size 0xFFFFFFFF, then a LIST', emptyDataThen(0xffffffff, 0, TRAILING_LIST)],
    ['size 0, then a LIST and an id3 chunk', emptyDataThen(0, 'patched', TRAILING_LIST, ID3)],
    ['size 0, then an odd LIST and its pad byte', emptyDataThen(0, 0, ODD_LIST, Buffer.alloc(1))],
    ['size 0, then an odd LIST without its pad byte', emptyDataThen(0, 0, ODD_LIST)],
    ['size 0, then an odd LIST, no pad, then id3', emptyDataThen(0, 0, ODD_LIST, ID3)],
  ])('refuses %s as holding no audio, never reads the chunks as samples', (_, wav) => {
    // Act
    const checked = checkRecording(wav, LIMITS);

    // Assess
    expect(checked.ok, JSON.stringify(checked)).toBe(false);
    if (!checked.ok) expect(checked.issues.map((issue) => issue.code)).toEqual(['no_audio_data']);
  });

  it.each([
    ['samples that happen to start like a chunk id', Buffer.from('LIST\x02\x00\x00\x00ab..')],
    ['a LIST whose size runs past the file', Buffer.from('LIST\xff\x00\x00\x00INFO', 'latin1')],
  ])('still reads a streamed WAV (size 0) whose %s as samples', (_, after) => {
    // Act
    const checked = checkRecording(emptyDataThen(0, 0, after), LIMITS);

    // Assess
    expect(checked.ok, JSON.stringify(checked)).toBe(true);
    if (checked.ok) expect(checked.value.durationSeconds).toBe(after.length / 2 / 16_000);
  });
});

describe('checkRecording: a recording just over the limit', () => {
  it.each([
    [60.01, '60.01'],
    [60.125, '60.1'],
    [60.000125, '60.0001'],
  ])('says %s s lasts more than the limit, never "60.0 s"', (seconds, shown) => {
    // Prepare: 8 kHz mono, so every 1/8000 s is one sample.
    const samples = Math.round(seconds * 8_000);
    const wav = wavFile(new Uint8Array(samples * 2), { ...MONO_48K, sampleRate: 8_000 });

    // Act
    const checked = checkRecording(wav, LIMITS);

    // Assess
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.issues[0]?.message).toContain(`lasts ${shown} s; at most 60 s`);
  });
});
