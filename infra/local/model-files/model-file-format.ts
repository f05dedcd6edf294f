import { open } from 'node:fs/promises';
import type { ModelFileFormat } from './hub-file';

/** GGUF files open with "GGUF"; whisper.cpp's ggml files with 0x67676d6c written little-endian. */
const magics: Record<ModelFileFormat, Buffer> = {
  gguf: Buffer.from('GGUF', 'latin1'),
  ggml: Buffer.from([0x6c, 0x6d, 0x67, 0x67]),
};

export const formatNames: Record<ModelFileFormat, string> = {
  gguf: 'GGUF model',
  ggml: 'whisper.cpp ggml model',
};

/** The formats a file's first bytes say it is in; empty when none. */
export async function formatsOfFile(path: string): Promise<ModelFileFormat[]> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return (Object.keys(magics) as ModelFileFormat[]).filter(
      (format) => bytesRead === 4 && head.equals(magics[format]),
    );
  } finally {
    await handle.close();
  }
}

/** What people are told a file should have been: one format, or either. */
export function expectedFormatName(format: ModelFileFormat | null): string {
  return format === null ? 'GGUF or whisper.cpp ggml model' : formatNames[format];
}
