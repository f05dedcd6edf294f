/**
 * The WAV check of media/whisper/transcribe, pure: the header read as RIFF lays it out
 * (readWavData, shared with the speech adapters: RIFF, RF64 or BW64, `fmt ` of integer PCM,
 * plain or WAVE_FORMAT_EXTENSIBLE, chunks walked to `data`), then what we take: 16-bit samples, a
 * plausible rate and channel count, whole frames of audio, and a duration within the limit.
 */
import { readWavData, wavHeader } from '../../../shared/adapters/speech/wav-format';
import type { PcmFormat, Recording } from '../../../shared/ports/speech';
import { failure, type Result, success } from '../../../shared/result';

/** What is wrong with a file that is not a recording we take, for the 4xx body. */
export interface RecordingIssue {
  readonly code:
    | 'not_pcm_wav'
    | 'unsupported_sample_width'
    | 'unsupported_format'
    | 'no_audio_data'
    | 'too_long';
  readonly message: string;
}

const MIN_RATE = 8_000;
const MAX_RATE = 192_000;
const MAX_CHANNELS = 8;
/** The header `wavHeader` writes. */
const WAV_HEADER_BYTES = 44;

const issue = (code: RecordingIssue['code'], message: string) =>
  failure<RecordingIssue>([{ code, message }]);

/** The recording in `bytes`, or why it is not a 16-bit PCM WAV within `maxSeconds`. */
export function checkRecording(
  bytes: Uint8Array,
  limits: { readonly maxSeconds: number },
): Result<Recording, RecordingIssue> {
  const read = readWavData(bytes);
  if (!read.ok) {
    return read.reason === 'invalid'
      ? issue('not_pcm_wav', `The file is not a PCM WAV file: ${read.issue}.`)
      : issue('no_audio_data', `The WAV file holds no audio: ${read.issue}.`);
  }
  const { format, data } = read.value;
  if (format.sampleWidth !== 2) {
    return issue(
      'unsupported_sample_width',
      `The WAV file has ${format.sampleWidth * 8}-bit samples; send 16-bit PCM.`,
    );
  }
  const { sampleRate, channels } = format;
  if (sampleRate < MIN_RATE || sampleRate > MAX_RATE || channels > MAX_CHANNELS) {
    return issue(
      'unsupported_format',
      `The WAV file says ${sampleRate} Hz and ${channels} channels; send ${MIN_RATE}-${MAX_RATE} Hz, 1-${MAX_CHANNELS} channels.`,
    );
  }
  const frames = Math.floor(data.length / (channels * 2));
  if (frames === 0)
    return issue('no_audio_data', 'The WAV file holds no audio (an empty "data" chunk).');
  const durationSeconds = frames / sampleRate;
  if (durationSeconds > limits.maxSeconds) {
    return issue(
      'too_long',
      `The recording lasts ${secondsAbove(durationSeconds, limits.maxSeconds)} s; at most ${limits.maxSeconds} s are taken.`,
    );
  }
  // An RF64 file or one missing a pad byte goes on as the plain WAV its samples fit in (an upload
  // is far under RIFF's 4 GiB): a speech provider may read only that.
  const wav = read.value.irregular ? plainWav(format, data) : bytes;
  return success({ wav, format, durationSeconds });
}

function plainWav(format: PcmFormat, data: Uint8Array): Uint8Array {
  const wav = new Uint8Array(WAV_HEADER_BYTES + data.length);
  wav.set(wavHeader(format, data.length), 0);
  wav.set(data, WAV_HEADER_BYTES);
  return wav;
}

/**
 * `seconds` (over `limit`) with as many decimals as it takes to read as more than the limit,
 * truncated, never rounded to it: 60.01 s is "60.01", not "60.0".
 */
function secondsAbove(seconds: number, limit: number): string {
  for (let decimals = 1; decimals < 7; decimals += 1) {
    const scale = 10 ** decimals;
    const shown = Math.floor(seconds * scale) / scale;
    if (shown > limit) return shown.toFixed(decimals);
  }
  return String(seconds);
}
