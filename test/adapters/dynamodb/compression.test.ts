import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressText, decompressText } from '../../../shared/adapters/dynamodb/compression';

const TEXT = JSON.stringify([
  { role: 'user', content: 'Turn on the kitchen light and set a timer for five minutes' },
  { role: 'assistant', content: 'The kitchen light is on; the timer runs for five minutes.' },
]);

describe('compressText and decompressText', () => {
  it('round-trips UTF-8 text', () => {
    const text = `${TEXT} Grüße, 東京, 🎉`;

    expect(decompressText(compressText(text))).toBe(text);
  });

  it('reads text gzip-compressed, as items written before zstd hold it', () => {
    expect(decompressText(gzipSync(Buffer.from(TEXT, 'utf8')))).toBe(TEXT);
  });

  it('never reads a damaged attribute as other text: any one byte changed fails or reads the same', () => {
    // Prepare
    const bytes = compressText(TEXT);
    const misread: number[] = [];

    // Act: each byte in turn, one bit flipped.
    for (let index = 0; index < bytes.length; index += 1) {
      const damaged = Uint8Array.from(bytes);
      damaged[index] = (damaged[index] ?? 0) ^ 0x10;
      let text: string | null = null;
      try {
        text = decompressText(damaged);
      } catch {
        // Refused: what a damaged attribute must give.
      }
      if (text !== null && text !== TEXT) misread.push(index);
    }

    // Assess
    expect(misread).toEqual([]);
  });

  it('throws on bytes that are neither zstd nor gzip', () => {
    expect(() => decompressText(Buffer.from('plain text'))).toThrow();
  });
});
