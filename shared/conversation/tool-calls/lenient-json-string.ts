import { JsonRefusedError } from './json-refused-error';
import { JsonRepair } from './json-repair';

const simpleEscapes: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);
const hexDigits = /^[0-9a-fA-F]{4}$/;

/**
 * Reads the string whose opening quote (`"` or `'`) is at `start`; `end` is just past its closing
 * quote. Single quotes and raw control characters are repairs, reported through `onRepair`.
 */
export function readQuotedString(
  text: string,
  start: number,
  onRepair: (repair: JsonRepair) => void,
): { readonly value: string; readonly end: number } {
  const quote = text[start];
  if (quote === "'") onRepair(JsonRepair.singleQuotes);
  let position = start + 1;
  let value = '';
  let chunkStart = position;
  for (;;) {
    const character = text[position];
    // The rest of a cut string is unknown: closing it would invent a shorter value.
    if (character === undefined) throw new JsonRefusedError('the text ends inside a string');
    if (character === quote) {
      return { value: value + text.slice(chunkStart, position), end: position + 1 };
    }
    if (character === '\\') {
      const escaped = readEscape(text, position, quote === "'");
      value += text.slice(chunkStart, position) + escaped.value;
      position = escaped.end;
      chunkStart = position;
      continue;
    }
    if (character < ' ') onRepair(JsonRepair.rawControlCharacters);
    position += 1;
  }
}

function readEscape(
  text: string,
  backslash: number,
  singleQuoted: boolean,
): { readonly value: string; readonly end: number } {
  const code = text[backslash + 1];
  if (code === undefined) throw new JsonRefusedError('the text ends inside a string');
  const simple = simpleEscapes.get(code);
  if (simple !== undefined) return { value: simple, end: backslash + 2 };
  // `\'` is how Python escapes the quote of a single-quoted string; JSON has no such escape.
  if (code === "'" && singleQuoted) return { value: "'", end: backslash + 2 };
  if (code === 'u') {
    const hex = text.slice(backslash + 2, backslash + 6);
    if (!hexDigits.test(hex))
      throw new JsonRefusedError(`invalid \\u escape at position ${backslash}`);
    return { value: String.fromCharCode(Number.parseInt(hex, 16)), end: backslash + 6 };
  }
  throw new JsonRefusedError(`invalid escape '\\${code}' at position ${backslash}`);
}
