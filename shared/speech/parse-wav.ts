/**
 * The WAV check of media/whisper/transcribe, pure: RIFF/WAVE, a `fmt ` chunk of uncompressed PCM
 * (format 1, or WAVE_FORMAT_EXTENSIBLE whose subformat is PCM), 16-bit samples, a plausible
 * rate and channel count, and a `data` chunk of whole frames; its duration from the header.
 * Chunks are walked as RIFF lays them out (any order, odd sizes padded), so a `LIST` chunk
 * before `data`, as many recorders write, is fine.
 */
import type { PcmFormat, Recording } from '../ports/speech';
import { failure, type Result, success } from '../result';

/** What is wrong with a file that is not a recording we take, for the 400/415 body. */
export interface WavIssue {
  readonly code:
    | 'not_wav'
    | 'no_format_chunk'
    | 'not_pcm'
    | 'unsupported_sample_width'
    | 'unsupported_format'
    | 'no_audio_data'
    | 'too_long';
  readonly message: string;
}

export interface WavLimits {
  readonly maxSeconds: number;
}

const PCM = 1;
const EXTENSIBLE = 0xfffe;
const MIN_RATE = 8_000;
const MAX_RATE = 192_000;
const MAX_CHANNELS = 8;

const issue = (code: WavIssue['code'], message: string) => failure<WavIssue>([{ code, message }]);

/** The recording in `bytes`, or why it is not a 16-bit PCM WAV within the limits. */
export function parseWav(bytes: Uint8Array, limits: WavLimits): Result<Recording, WavIssue> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) =>
    String.fromCharCode(...bytes.subarray(offset, Math.min(offset + 4, bytes.length)));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') {
    return issue('not_wav', 'The file is not a WAV file (no RIFF/WAVE header).');
  }
  let format: (PcmFormat & { readonly code: number; readonly bits: number }) | null = null;
  let data: { readonly offset: number; readonly length: number } | null = null;
  for (let offset = 12; offset + 8 <= bytes.length && data === null; ) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ' && size >= 16 && body + 16 <= bytes.length) {
      const code = view.getUint16(body, true);
      const extensible = code === EXTENSIBLE && size >= 40 && body + 26 <= bytes.length;
      format = {
        // WAVE_FORMAT_EXTENSIBLE names the real format in the first 2 bytes of its subformat GUID.
        code: extensible ? view.getUint16(body + 24, true) : code,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
        sampleWidth: view.getUint16(body + 14, true) / 8,
      };
    } else if (id === 'data') {
      // A recorder that never patched the size (streaming) writes 0 or 0xFFFFFFFF: take the rest.
      const rest = bytes.length - body;
      data = { offset: body, length: size === 0 || size > rest ? rest : size };
    }
    offset = body + size + (size % 2);
  }
  if (format === null) return issue('no_format_chunk', 'The WAV file has no "fmt " chunk.');
  if (format.code !== PCM) {
    return issue(
      'not_pcm',
      `The WAV file is not uncompressed PCM (format ${format.code}); send 16-bit PCM.`,
    );
  }
  if (format.bits !== 16) {
    return issue(
      'unsupported_sample_width',
      `The WAV file has ${format.bits}-bit samples; send 16-bit PCM.`,
    );
  }
  const { sampleRate, channels } = format;
  if (sampleRate < MIN_RATE || sampleRate > MAX_RATE || channels < 1 || channels > MAX_CHANNELS) {
    return issue(
      'unsupported_format',
      `The WAV file says ${sampleRate} Hz and ${channels} channels; send ${MIN_RATE}-${MAX_RATE} Hz, 1-${MAX_CHANNELS} channels.`,
    );
  }
  const frameBytes = channels * 2;
  const frames = data === null ? 0 : Math.floor(data.length / frameBytes);
  if (data === null || frames === 0) {
    return issue(
      'no_audio_data',
      'The WAV file holds no audio (no "data" chunk, or an empty one).',
    );
  }
  const durationSeconds = frames / sampleRate;
  if (durationSeconds > limits.maxSeconds) {
    return issue(
      'too_long',
      `The recording lasts ${durationSeconds.toFixed(1)} s; at most ${limits.maxSeconds} s are taken.`,
    );
  }
  return success({
    wav: bytes,
    format: { sampleRate, channels, sampleWidth: 2 },
    durationSeconds,
  });
}
