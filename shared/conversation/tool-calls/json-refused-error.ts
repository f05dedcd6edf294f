/**
 * Thrown inside the recursive lenient JSON reader to unwind to `readLenientJson`, which turns it
 * into a value; it never leaves the reader.
 */
export class JsonRefusedError extends Error {
  override readonly name = 'JsonRefusedError';
}
