/** Bounds for one JSON value; `Infinity` leaves one out. */
export interface JsonBounds {
  readonly bytes: number;
  readonly depth: number;
  readonly arrayItems: number;
}

/** The first bound a value breaks, where (path segments from the value), and by how much. */
export interface JsonExcess {
  readonly bound: keyof JsonBounds;
  /** What was found: the depth or array length; for bytes, the count when the walk stopped. */
  readonly found: number;
  readonly path: readonly string[];
}

// The path is kept as a link to the parent: built only for the one value that breaks a bound.
interface Pending {
  readonly value: unknown;
  readonly depth: number;
  readonly parent: Pending | null;
  readonly key: string;
}

/**
 * Walks a parsed JSON value without recursion (a value nested 100,000 deep is walked as easily
 * as a flat one) and stops at the first bound it breaks, so the work is bounded by the bounds,
 * not by the value. Bytes are the UTF-8 bytes of its compact JSON (`JSON.stringify(value)`).
 */
export function jsonExcess(value: unknown, bounds: JsonBounds): JsonExcess | null {
  const pending: Pending[] = [{ value, depth: 0, parent: null, key: '' }];
  let bytes = 0;
  while (pending.length > 0) {
    const entry = pending.pop() as Pending;
    const { value: current, depth } = entry;
    if (typeof current !== 'object' || current === null) {
      bytes += scalarBytes(current);
    } else {
      const inner = depth + 1;
      if (inner > bounds.depth) return { bound: 'depth', found: inner, path: pathOf(entry) };
      if (Array.isArray(current)) {
        if (current.length > bounds.arrayItems) {
          return { bound: 'arrayItems', found: current.length, path: pathOf(entry) };
        }
        bytes += 2 + Math.max(0, current.length - 1);
        for (let index = current.length - 1; index >= 0; index -= 1) {
          pending.push({ value: current[index], depth: inner, parent: entry, key: String(index) });
        }
      } else {
        const entries = Object.entries(current);
        bytes += 2 + Math.max(0, entries.length - 1);
        for (let index = entries.length - 1; index >= 0; index -= 1) {
          const [key, member] = entries[index] ?? ['', null];
          bytes += stringBytes(key) + 1;
          pending.push({ value: member, depth: inner, parent: entry, key });
        }
      }
    }
    if (bytes > bounds.bytes) return { bound: 'bytes', found: bytes, path: [] };
  }
  return null;
}

function pathOf(entry: Pending): string[] {
  const path: string[] = [];
  for (let at: Pending | null = entry; at?.parent != null; at = at.parent) path.push(at.key);
  return path.reverse();
}

function scalarBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return 4; // null (and what JSON writes as null)
}

// A string's length in UTF-8 bytes as JSON writes it, quotes and escapes included.
function stringBytes(text: string): number {
  const written = JSON.stringify(text);
  let bytes = 0;
  for (let index = 0; index < written.length; index += 1) {
    const unit = written.charCodeAt(index);
    // A surrogate pair is 4 bytes; JSON.stringify escapes lone surrogates.
    bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3;
  }
  return bytes;
}
