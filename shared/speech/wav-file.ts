import type { PcmFormat } from '../ports/speech';

const HEADER_BYTES = 44;

/**
 * PCM in a canonical 44-byte WAV header (RIFF, `fmt ` of PCM format 1, `data`): what
 * media/tts/speak answers, and what a player or the node's `speak` reads.
 */
export function wavFile(pcm: Uint8Array, format: PcmFormat): Uint8Array {
  const file = new Uint8Array(HEADER_BYTES + pcm.length);
  const view = new DataView(file.buffer);
  const ascii = (offset: number, text: string) => {
    for (let index = 0; index < text.length; index += 1)
      file[offset + index] = text.charCodeAt(index);
  };
  const blockAlign = format.channels * format.sampleWidth;
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + pcm.length, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, format.channels, true);
  view.setUint32(24, format.sampleRate, true);
  view.setUint32(28, format.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, format.sampleWidth * 8, true);
  ascii(36, 'data');
  view.setUint32(40, pcm.length, true);
  file.set(pcm, HEADER_BYTES);
  return file;
}
