import type { PcmFormat } from '../../ports/speech';

/** Where a WAV file's samples are: their format, and the byte range of its `data` chunk. */
export interface WavLayout {
  readonly format: PcmFormat;
  readonly dataOffset: number;
  /** Bytes of samples; null when the header does not say (a streamed WAV: 0 or 0xFFFFFFFF). */
  readonly dataBytes: number | null;
  /**
   * True when the file is one a strict reader may refuse though it is a WAV: RF64 or BW64 (the
   * data size in a `ds64` chunk), or a chunk of odd size without its pad byte. Its samples are
   * handed on under a plain header (`wavHeader`).
   */
  readonly irregular: boolean;
}

export type WavReading =
  | { readonly ok: true; readonly value: WavLayout }
  /** `incomplete`: more bytes may still make a header (a stream's first chunks). */
  | { readonly ok: false; readonly reason: 'incomplete' | 'invalid'; readonly issue: string };

const PCM = 1;
const EXTENSIBLE = 0xfffe;
const RIFF_HEADER_BYTES = 12;
/** The fmt chunk of WAVE_FORMAT_EXTENSIBLE: the 16 bytes of PCM's, its extension, its sub-format. */
const EXTENSIBLE_FMT_BYTES = 40;
const CHUNK_HEADER_BYTES = 8;
const UNKNOWN_SIZES = new Set([0, 0xffff_ffff]);
/**
 * Chunk ids as big-endian numbers: the walk compares numbers, not strings made per chunk (a 4 MiB
 * upload of empty chunks is 500,000 of them: 110-130 ms as strings, a few ms as numbers).
 */
const DATA_ID = 0x6461_7461;
const FMT_ID = 0x666d_7420;
const DS64_ID = 0x6473_3634;
/** The sizes of a `ds64` chunk read here: the RIFF's and the data's, 64 bits each. */
const DS64_SIZES_BYTES = 16;

const ascii = (bytes: Uint8Array, at: number): string =>
  String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * The forms of a WAV file: RIFF, and RF64 (EBU Tech 3306) and BW64 (ITU-R BS.2088), which give
 * their sizes in a `ds64` chunk and are written by recorders that may pass 4 GiB.
 */
const WAVE_FORMS: ReadonlySet<string> = new Set(['RIFF', 'RF64', 'BW64']);

/** Whether `bytes` open with a RIFF/WAVE header (what tells a WAV file from raw PCM). */
export const isRiffWave = (bytes: Uint8Array): boolean =>
  bytes.length >= RIFF_HEADER_BYTES &&
  WAVE_FORMS.has(ascii(bytes, 0)) &&
  ascii(bytes, 8) === 'WAVE';

/** Four printable ASCII characters at `at`: what a chunk id is (`fmt `, `LIST`, `data`). */
function isChunkId(bytes: Uint8Array, at: number): boolean {
  if (at + 4 > bytes.length) return false;
  for (let index = at; index < at + 4; index += 1) {
    const byte = bytes[index] ?? 0;
    if (byte < 0x20 || byte > 0x7e) return false;
  }
  return true;
}

/**
 * Reads the header of a WAV file of integer PCM (plain or WAVE_FORMAT_EXTENSIBLE), walking its
 * chunks to `data`. Pure: the upload check at the edge and the speech adapters share it.
 */
export function readWavLayout(bytes: Uint8Array): WavReading {
  const incomplete = (issue: string): WavReading => ({ ok: false, reason: 'incomplete', issue });
  const invalid = (issue: string): WavReading => ({ ok: false, reason: 'invalid', issue });
  if (bytes.length < RIFF_HEADER_BYTES) return incomplete('shorter than a RIFF header');
  if (!isRiffWave(bytes)) {
    return invalid('not a RIFF/WAVE file');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: PcmFormat | null = null;
  let irregular = ascii(bytes, 0) !== 'RIFF';
  /** The data's size from a `ds64` chunk (RF64, BW64), for a data chunk that says 0xFFFFFFFF. */
  let ds64DataBytes: number | null = null;
  for (let at = RIFF_HEADER_BYTES; ; ) {
    if (at + CHUNK_HEADER_BYTES > bytes.length) return incomplete('no data chunk yet');
    const id = view.getUint32(at, false);
    const size = view.getUint32(at + 4, true);
    const body = at + CHUNK_HEADER_BYTES;
    if (id === DATA_ID) {
      if (format === null) return invalid('the data chunk comes before any fmt chunk');
      const dataBytes =
        size === 0xffff_ffff && ds64DataBytes !== null
          ? ds64DataBytes
          : UNKNOWN_SIZES.has(size)
            ? null
            : size;
      return { ok: true, value: { format, dataOffset: body, dataBytes, irregular } };
    }
    if (id === DS64_ID && irregular && size >= DS64_SIZES_BYTES) {
      if (body + DS64_SIZES_BYTES > bytes.length) return incomplete('the ds64 chunk is cut short');
      const high = view.getUint32(body + 12, true);
      // Past 2^53 bytes no file is: such a size is read as unknown, the data ending with the file.
      ds64DataBytes = high < 0x20_0000 ? high * 2 ** 32 + view.getUint32(body + 8, true) : null;
    }
    if (id === FMT_ID) {
      // Fewer than 16 bytes would have its fields read from the next chunk; a second fmt chunk
      // would say which format the samples are in twice.
      if (size < 16) return invalid(`the fmt chunk is ${size} bytes; a PCM one has 16 or more`);
      if (format !== null) return invalid('two fmt chunks');
      // All of the fields read (an extensible one's sub-format is 24 bytes in): a stream's first
      // chunk may end inside them, and the next makes them whole.
      if (body + Math.min(size, EXTENSIBLE_FMT_BYTES) > bytes.length) {
        return incomplete('the fmt chunk is cut short');
      }
      const read = readFormat(view, body, size);
      if (!read.ok) return read;
      format = read.value;
    }
    // Chunks are padded to an even size; a writer that left a pad byte out is read as it wrote:
    // the next chunk's id starts right after the odd chunk. A pad byte is zero, never a letter of
    // an id, so that place alone tells them apart (the padded place would hold the id's last three
    // letters and the size's low byte, which may be printable too).
    const end = body + size;
    const unpadded = size % 2 === 1 && isChunkId(bytes, end);
    if (unpadded) irregular = true;
    at = unpadded ? end : end + (size % 2);
  }
}

/** A WAV file's format and the bytes of its samples. */
export interface WavData {
  readonly format: PcmFormat;
  readonly data: Uint8Array;
  /** As WavLayout's: a strict reader may refuse the file; hand its samples on under `wavHeader`. */
  readonly irregular: boolean;
}

/**
 * readWavLayout's header, and the samples it points to as a view of `bytes`: a `data` chunk that
 * says more than the file holds (a recorder that never patched the size) or nothing (a streamed
 * WAV) ends where the file does.
 */
export function readWavData(
  bytes: Uint8Array,
): { readonly ok: true; readonly value: WavData } | (WavReading & { readonly ok: false }) {
  const layout = readWavLayout(bytes);
  if (!layout.ok) return layout;
  const { format, dataOffset, dataBytes, irregular } = layout.value;
  const size =
    dataBytes === null && onlyChunksFrom(bytes, dataOffset) ? 0 : (dataBytes ?? bytes.length);
  const end = Math.min(bytes.length, dataOffset + size);
  return { ok: true, value: { format, data: bytes.subarray(dataOffset, end), irregular } };
}

/**
 * Whether the bytes from `at` to the end of the file are one or more whole chunks (a printable id,
 * a size, a body, its pad byte or not), the last ending where the file does. A `data` chunk whose
 * size says "unknown" (0, 0xFFFFFFFF) and is followed by such bytes is empty, not streamed: a
 * writer that knew its data was empty and wrote a `LIST` after it. Samples never line up so.
 */
function onlyChunksFrom(bytes: Uint8Array, at: number): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let chunk = at; chunk + CHUNK_HEADER_BYTES <= bytes.length; ) {
    if (!isChunkId(bytes, chunk)) return false;
    const end = chunk + CHUNK_HEADER_BYTES + view.getUint32(chunk + 4, true);
    const padded = end + ((end - chunk) % 2);
    if (end === bytes.length || padded === bytes.length) return true;
    if (padded > bytes.length) return false;
    chunk = padded < bytes.length && isChunkId(bytes, padded) ? padded : end;
  }
  return false;
}

function readFormat(
  view: DataView,
  body: number,
  size: number,
): { ok: true; value: PcmFormat } | (WavReading & { ok: false }) {
  const tag = view.getUint16(body, true);
  const channels = view.getUint16(body + 2, true);
  const sampleRate = view.getUint32(body + 4, true);
  const byteRate = view.getUint32(body + 8, true);
  const blockAlign = view.getUint16(body + 12, true);
  const bitsPerSample = view.getUint16(body + 14, true);
  const extensiblePcm =
    tag === EXTENSIBLE && size >= EXTENSIBLE_FMT_BYTES && view.getUint16(body + 24, true) === PCM;
  if (tag !== PCM && !extensiblePcm) {
    return { ok: false, reason: 'invalid', issue: `not integer PCM (format tag ${tag})` };
  }
  if (bitsPerSample % 8 !== 0 || bitsPerSample === 0 || channels === 0 || sampleRate === 0) {
    return {
      ok: false,
      reason: 'invalid',
      issue: `an unusable format: ${channels} channels, ${sampleRate} Hz, ${bitsPerSample} bits`,
    };
  }
  // The fields that repeat the format must agree with it: a byte rate that wrapped past 32 bits
  // or a block that is not one frame says the header is not what it claims.
  const frameBytes = channels * (bitsPerSample / 8);
  if (blockAlign !== frameBytes || byteRate !== sampleRate * frameBytes) {
    return {
      ok: false,
      reason: 'invalid',
      issue: `the fmt chunk contradicts itself: ${byteRate} bytes a second and ${blockAlign} bytes a frame for ${channels} channels of ${bitsPerSample} bits at ${sampleRate} Hz`,
    };
  }
  return { ok: true, value: { sampleRate, channels, sampleWidth: bitsPerSample / 8 } };
}

/** The 44-byte header of a plain PCM WAV file holding `dataBytes` bytes of samples. */
export function wavHeader(format: PcmFormat, dataBytes: number): Uint8Array {
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  const write = (at: number, text: string) => {
    for (let index = 0; index < text.length; index += 1) {
      view.setUint8(at + index, text.charCodeAt(index));
    }
  };
  const blockAlign = format.channels * format.sampleWidth;
  write(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  write(8, 'WAVE');
  write(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, PCM, true);
  view.setUint16(22, format.channels, true);
  view.setUint32(24, format.sampleRate, true);
  view.setUint32(28, format.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, format.sampleWidth * 8, true);
  write(36, 'data');
  view.setUint32(40, dataBytes, true);
  return header;
}
