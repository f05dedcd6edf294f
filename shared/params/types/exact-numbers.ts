/**
 * Numbers JSON text can hold but a JavaScript number cannot: `1e400` (JSON.parse makes it
 * Infinity, which JSON.stringify writes as null), `1e-400` (0), an integer beyond 2^53 that is
 * not exactly a double (`9007199254740993` reads as `…992`). Such a number is never changed
 * silently: it is kept as its exact text (`JSON.rawJSON`, which JSON.stringify writes back as
 * it was sent), and whoever needs a number refuses it by name (`firstInexactNumber`).
 */

/** What `JSON.rawJSON` returns: a frozen object JSON.stringify writes as its text. */
export interface RawJsonNumber {
  readonly rawJSON: string;
}

// Node 21+ (V8 11.4): source text access in revivers, JSON.rawJSON and JSON.isRawJSON.
const json = JSON as JSON & {
  rawJSON(text: string): RawJsonNumber;
  isRawJSON(value: unknown): value is RawJsonNumber;
  parse(
    text: string,
    reviver: (key: string, value: unknown, context: { readonly source?: string }) => unknown,
  ): unknown;
};

/** The longest integer literal a double can be (1.8e308 has 309 digits): longer is Infinity. */
const MAXIMUM_INTEGER_DIGITS = 309;
const INTEGER_LITERAL = /^-?\d+$/;

/**
 * True when `source`, a JSON number, reads to a double that writes back as another number: out of
 * range (Infinity, or 0 for `1e-400`), or an integer literal beyond 2^53 whose digits the double
 * does not keep (`9007199254740993` writes back as `…992`; `139439931315533620`, which is what
 * JSON.stringify writes for a double, writes back the same and is kept as a number).
 */
export function isInexactNumber(value: number, source: string): boolean {
  if (!Number.isFinite(value)) return true;
  if (value === 0) return /[1-9]/.test(source.split(/[eE]/)[0] ?? '');
  if (Number.isSafeInteger(value) || !INTEGER_LITERAL.test(source)) return false;
  const digits = source.startsWith('-') ? source.slice(1) : source;
  return digits.length > MAXIMUM_INTEGER_DIGITS || integerDigits(Math.abs(value)) !== digits;
}

/** The digits of a whole double as JavaScript writes it (`1.5e+21` is `15` and twenty zeros). */
function integerDigits(value: number): string {
  const [mantissa = '', exponent] = String(value).split('e+');
  if (exponent === undefined) return mantissa;
  const digits = mantissa.replace('.', '');
  return digits.padEnd(Number(exponent) + 1, '0');
}

/** A number read from JSON `source`: the number, or its exact text when a number would change it. */
export function exactNumber(value: number, source: string): number | RawJsonNumber {
  return isInexactNumber(value, source) ? json.rawJSON(source) : value;
}

/**
 * Only a number with an exponent or a run of 16 digits can be inexact: 2^53 has 16 digits, and a
 * literal that overflows or underflows without an exponent has hundreds. Text with neither (almost
 * every body) skips the reviver, which costs a call per value (a 255 KB enum: about 3 times).
 * Strings are skipped: an id such as `"p-9e1f"` or a phone number holds no number, and taking it
 * for one sent a 44,352-value enum through the reviver on one id in three. One pass over the
 * characters (a regular expression retried both branches at every digit: 5 times as long).
 */
export function mayHoldInexactNumber(text: string): boolean {
  let digits = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = closingQuote(text, index);
      digits = 0;
    } else if (code >= DIGIT_0 && code <= DIGIT_9) {
      digits += 1;
      if (digits >= SAFE_INTEGER_DIGITS) return true;
    } else if (digits > 0 && (code === LOWER_E || code === UPPER_E)) {
      return true;
    } else {
      digits = 0;
    }
  }
  return false;
}

/** Where the string opened at `open` ends (its closing quote), or the text's end if it never does. */
function closingQuote(text: string, open: number): number {
  for (let index = open + 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) index += 1;
    else if (code === QUOTE) return index;
  }
  return text.length;
}

const [DIGIT_0, DIGIT_9, LOWER_E, UPPER_E, QUOTE, BACKSLASH] = ['0', '9', 'e', 'E', '"', '\\'].map(
  (c) => c.charCodeAt(0),
) as [number, number, number, number, number, number];
/** The digits of 2^53: a shorter integer literal is always exact. */
const SAFE_INTEGER_DIGITS = 16;

/** `JSON.parse`, keeping every number a double cannot hold exactly as its text (`RawJsonNumber`). */
export function parseJsonExact(text: string): unknown {
  if (!mayHoldInexactNumber(text)) return JSON.parse(text);
  return json.parse(text, (_key: string, value: unknown, context: { readonly source?: string }) =>
    typeof value === 'number' && context.source !== undefined
      ? exactNumber(value, context.source)
      : value,
  );
}

/** Whether `value` is a number kept as its text. */
export function isRawJsonNumber(value: unknown): value is RawJsonNumber {
  return json.isRawJSON(value);
}

/**
 * A number kept as its text inside `value`, with its path (keys from `value`), or null. Walks
 * without recursion, visits each value once and keeps only objects on its stack (a path is built
 * for the one found): an enum of 44,352 numbers is one loop, not 44,352 paths. Call it on values
 * whose size is already bounded.
 */
export function firstInexactNumber(
  value: unknown,
): { readonly path: readonly string[]; readonly source: string } | null {
  if (typeof value !== 'object' || value === null) return null;
  const pending: Visit[] = [{ value, key: '', parent: null }];
  while (pending.length > 0) {
    const visit = pending.pop() as Visit;
    if (isRawJsonNumber(visit.value)) return { path: pathTo(visit), source: visit.value.rawJSON };
    const push = (member: unknown, key: string | number) => {
      if (typeof member === 'object' && member !== null) {
        pending.push({ value: member, key: String(key), parent: visit });
      }
    };
    // Arrays by index: a key string is made only for an element that is an object.
    if (Array.isArray(visit.value)) visit.value.forEach(push);
    else for (const [key, member] of Object.entries(visit.value)) push(member, key);
  }
  return null;
}

/** An object on the walk's stack: its key in its parent, and the parent's visit. */
interface Visit {
  readonly value: object;
  readonly key: string;
  readonly parent: Visit | null;
}

function pathTo(visit: Visit): string[] {
  const path: string[] = [];
  for (let at: Visit | null = visit; at?.parent != null; at = at.parent) path.push(at.key);
  return path.reverse();
}
