import { describe, expect, it } from 'vitest';
import { compressText, decompressText } from '../../../shared/adapters/dynamodb/compression';
import { RepeatedTexts } from '../../../shared/adapters/dynamodb/repeated-texts';

describe('RepeatedTexts: the registration and the home compressed once per container', () => {
  it('gives the bytes compressing gives, and the text of any gzip bytes', () => {
    const texts = new RepeatedTexts();
    const text = JSON.stringify({ available_commands: ['x'.repeat(5_000)] });

    const first = texts.compress(text);
    const again = texts.compress(text);

    expect(first).toEqual(compressText(text));
    expect(again).toBe(first);
    expect(texts.decompress(compressText('other'))).toBe('other');
    expect(texts.decompress(first)).toBe(text);
  });

  it('remembers the text of bytes it decompressed, for the next write', () => {
    const texts = new RepeatedTexts();
    const bytes = compressText('stored by another container');

    texts.decompress(bytes);

    expect(texts.compress('stored by another container')).toBe(bytes);
  });

  it('keeps only the most recently used, and still answers the rest', () => {
    const texts = new RepeatedTexts();
    const first = texts.compress('text 0');
    for (let index = 1; index <= 40; index += 1) texts.compress(`text ${index}`);

    const again = texts.compress('text 0');

    expect(again).not.toBe(first);
    expect(decompressText(again)).toBe('text 0');
  });

  it('refuses bytes that are not gzip, as decompressing does', () => {
    expect(() => new RepeatedTexts().decompress(new Uint8Array([1, 2, 3]))).toThrow();
  });
});
