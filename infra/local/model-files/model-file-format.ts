import { open } from 'node:fs/promises';
import type { ModelFileFormat } from './hub-file';

/**
 * GGUF files open with "GGUF"; whisper.cpp's ggml files with 0x67676d6c written little-endian;
 * ONNX files (a protobuf ModelProto) with the key of its first field, `ir_version` (0x08), as
 * every exporter writes it. A text file (a tokenizer's list) has no mark: its digest is its check.
 */
const magics: Record<ModelFileFormat, Buffer> = {
  gguf: Buffer.from('GGUF', 'latin1'),
  ggml: Buffer.from([0x6c, 0x6d, 0x67, 0x67]),
  onnx: Buffer.from([0x08]),
  text: Buffer.alloc(0),
};

export const formatNames: Record<ModelFileFormat, string> = {
  gguf: 'GGUF model',
  ggml: 'whisper.cpp ggml model',
  onnx: 'ONNX model',
  text: 'text file',
};

/** What `null` accepts: a file either llama.cpp or whisper.cpp reads. */
const EITHER_GGML_OR_GGUF: readonly ModelFileFormat[] = ['gguf', 'ggml'];

/** The formats a file's first bytes say it is in; empty when none. */
export async function formatsOfFile(path: string): Promise<ModelFileFormat[]> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return (Object.keys(magics) as ModelFileFormat[]).filter((format) => {
      const magic = magics[format];
      return bytesRead >= magic.length && head.subarray(0, magic.length).equals(magic);
    });
  } finally {
    await handle.close();
  }
}

/** Whether `formats` (formatsOfFile's answer) hold `format`; null: GGUF or ggml. */
export function hasFormat(formats: readonly ModelFileFormat[], format: ModelFileFormat | null) {
  return (format === null ? EITHER_GGML_OR_GGUF : [format]).some((one) => formats.includes(one));
}

/** What people are told a file should have been: one format, or either. */
export function expectedFormatName(format: ModelFileFormat | null): string {
  return format === null ? 'GGUF or whisper.cpp ggml model' : formatNames[format];
}
