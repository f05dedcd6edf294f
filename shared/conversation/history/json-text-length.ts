/**
 * Bytes a string takes inside stored JSON: its UTF-8, with the escapes JSON.stringify writes
 * (`"` and `\` take 2, a control character 2 or 6, a lone surrogate 6). A tool output of 8,000
 * quotes is 16,000 bytes in the stored history: the budget must count what is stored.
 */
export function jsonTextBytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const size = unitBytes(text, index);
    bytes += size;
    if (size === 4) index += 1;
  }
  return bytes;
}

/** The longest start of `text` whose JSON bytes (as `jsonTextBytes`) fit in `maxBytes`. */
export function cutToJsonTextBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const size = unitBytes(text, index);
    if (bytes + size > maxBytes) return text.slice(0, index);
    bytes += size;
    if (size === 4) index += 1;
  }
  return text;
}

// 4 only for a surrogate pair (the caller then skips its second half).
function unitBytes(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return SHORT_ESCAPES.has(code) ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 6;
  }
  return code >= 0xdc00 && code <= 0xdfff ? 6 : 3;
}

/** `\b \t \n \f \r`: the control characters JSON writes in two bytes. */
const SHORT_ESCAPES: ReadonlySet<number> = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);
