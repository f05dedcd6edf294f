import { wavHeader } from '../../shared/adapters/speech/wav-format';
import type { PcmFormat, Recording } from '../../shared/ports/speech';

/** `seconds` of a 440 Hz tone as 16-bit mono PCM: audio that is not silence. */
export function tonePcm(seconds: number, sampleRate: number): Uint8Array {
  const samples = Math.round(seconds * sampleRate);
  const pcm = new Uint8Array(samples * 2);
  const view = new DataView(pcm.buffer);
  for (let index = 0; index < samples; index += 1) {
    view.setInt16(
      index * 2,
      Math.round(8_000 * Math.sin((2 * Math.PI * 440 * index) / sampleRate)),
      true,
    );
  }
  return pcm;
}

/** A WAV file holding `pcm` in `format`. */
export function wavFile(pcm: Uint8Array, format: PcmFormat): Uint8Array {
  const file = new Uint8Array(44 + pcm.length);
  file.set(wavHeader(format, pcm.length));
  file.set(pcm, 44);
  return file;
}

/** Every chunk of a stream, joined, and how many there were. */
export async function collect(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ bytes: Uint8Array; sizes: number[] }> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { bytes: new Uint8Array(Buffer.concat(parts)), sizes: parts.map((part) => part.length) };
}

/**
 * A stream read as a route reads it: the first chunk now; what follows (the next chunk, or all
 * the rest) only when the test asks, typically once it has let the server go on.
 */
export async function readFirstChunk(chunks: AsyncIterable<Uint8Array>) {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  return {
    first,
    next: () => iterator.next(),
    rest: () => collect({ [Symbol.asyncIterator]: () => iterator }),
  };
}

/** A promise and the function that settles it: a scripted server step held until released. */
export function releasable(): { promise: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

/**
 * A 16-bit WAV file of `seconds` at `sampleRate`, each channel the sum of its tones (`hz` and
 * amplitude as a fraction of full scale): stereo, 8 kHz, content above a Nyquist frequency.
 */
export function toneWav(
  seconds: number,
  sampleRate: number,
  channelTones: readonly (readonly { readonly hz: number; readonly amplitude: number }[])[],
): Uint8Array {
  const channels = channelTones.length;
  const frames = Math.round(seconds * sampleRate);
  const pcm = new Uint8Array(frames * channels * 2);
  const view = new DataView(pcm.buffer);
  for (let frame = 0; frame < frames; frame += 1) {
    channelTones.forEach((tones, channel) => {
      const value = tones.reduce(
        (sum, tone) =>
          sum + tone.amplitude * Math.sin((2 * Math.PI * tone.hz * frame) / sampleRate),
        0,
      );
      view.setInt16((frame * channels + channel) * 2, Math.round(value * 32_767), true);
    });
  }
  return wavFile(pcm, { sampleRate, channels, sampleWidth: 2 });
}

/** What the real node sends: mono 16-bit WAV at 48 kHz, here two tones in the speech band. */
export function nodeRecording(seconds: number): Recording {
  const format = { sampleRate: 48_000, channels: 1, sampleWidth: 2 };
  const tones = [
    { hz: 220, amplitude: 0.2 },
    { hz: 1_700, amplitude: 0.1 },
  ];
  return { wav: toneWav(seconds, format.sampleRate, [tones]), format, durationSeconds: seconds };
}

/** A WAVE_FORMAT_EXTENSIBLE header (what some recorders and
 * servers write) around `pcm`: stereo 16-bit at 16 kHz, of sub-format `subFormat` (1: PCM). */
export function extensibleWav(pcm: Uint8Array, subFormat: number): Uint8Array {
  const file = new Uint8Array(68 + pcm.length);
  const view = new DataView(file.buffer);
  const text = (at: number, value: string) => {
    for (let index = 0; index < value.length; index += 1)
      file[at + index] = value.charCodeAt(index);
  };
  text(0, 'RIFF');
  view.setUint32(4, 60 + pcm.length, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 40, true);
  view.setUint16(20, 0xfffe, true);
  view.setUint16(22, 2, true);
  view.setUint32(24, 16_000, true);
  view.setUint32(28, 64_000, true);
  view.setUint16(32, 4, true);
  view.setUint16(34, 16, true);
  view.setUint16(36, 22, true);
  view.setUint16(44, subFormat, true);
  text(60, 'data');
  view.setUint32(64, pcm.length, true);
  file.set(pcm, 68);
  return file;
}

/** `wav`'s chunks after `fmt ` rewritten as RF64 (or BW64) writes them: sizes in a `ds64` chunk. */
export function asRf64(
  wav: Uint8Array,
  form: 'RF64' | 'BW64',
  after = new Uint8Array(0),
): Uint8Array {
  const pcm = wav.subarray(44);
  const ds64 = Buffer.alloc(8 + 28);
  ds64.write('ds64', 0, 'latin1');
  ds64.writeUInt32LE(28, 4);
  ds64.writeUInt32LE(pcm.length, 8 + 8);
  const data = Buffer.alloc(8);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(0xffffffff, 4);
  const file = Buffer.concat([wav.subarray(0, 12), ds64, wav.subarray(12, 36), data, pcm, after]);
  file.write(form, 0, 'latin1');
  file.writeUInt32LE(0xffffffff, 4);
  return file;
}
