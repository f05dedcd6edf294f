import { exactNumber, type RawJsonNumber } from '../../params';
import { JsonRefusedError } from './json-refused-error';
import { JsonRepair } from './json-repair';
import { readQuotedString } from './lenient-json-string';

export type LenientJsonResult =
  | { readonly ok: true; readonly value: unknown; readonly repaired: readonly JsonRepair[] }
  | { readonly ok: false; readonly reason: string };

/** Deeper input is refused rather than risking the stack (valid JSON goes to JSON.parse first). */
const maximumDepth = 200;
const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const wordPattern = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const literals: ReadonlyMap<string, { value: boolean | null; python: boolean }> = new Map([
  ['true', { value: true, python: false }],
  ['false', { value: false, python: false }],
  ['null', { value: null, python: false }],
  ['True', { value: true, python: true }],
  ['False', { value: false, python: true }],
  ['None', { value: null, python: true }],
]);

/**
 * Reads a superset of JSON, applying only the repairs named in `JsonRepair`. Valid JSON reads to
 * the same value as `JSON.parse` with no repair recorded.
 */
export function readLenientJson(text: string): LenientJsonResult {
  const reader = new LenientJsonReader(text);
  try {
    const value = reader.readDocument();
    return { ok: true, value, repaired: reader.repairs() };
  } catch (error) {
    if (error instanceof JsonRefusedError) return { ok: false, reason: error.message };
    throw error;
  }
}

class LenientJsonReader {
  private position = 0;
  private readonly applied = new Set<JsonRepair>();

  constructor(private readonly text: string) {}

  repairs(): JsonRepair[] {
    return [...this.applied];
  }

  readDocument(): unknown {
    this.skipWhitespace();
    if (this.position >= this.text.length) throw new JsonRefusedError('the text is empty');
    const value = this.readValue(0);
    this.skipWhitespace();
    if (this.position < this.text.length) {
      throw new JsonRefusedError(`unexpected text after the value at position ${this.position}`);
    }
    return value;
  }

  private readValue(depth: number): unknown {
    this.skipWhitespace();
    const character = this.text[this.position];
    if (character === undefined) {
      throw new JsonRefusedError('the text ends where a value is expected');
    }
    if (character === '{') return this.readObject(depth + 1);
    if (character === '[') return this.readArray(depth + 1);
    if (character === '"' || character === "'") return this.readString();
    if (character === '-' || (character >= '0' && character <= '9')) return this.readNumber(depth);
    return this.readLiteral();
  }

  private readObject(depth: number): Record<string, unknown> {
    this.enter(depth);
    const result: Record<string, unknown> = {};
    if (this.closesEmpty('}')) return result;
    for (;;) {
      this.skipWhitespace();
      const key = this.readKey();
      this.skipWhitespace();
      if (this.text[this.position] !== ':') {
        throw new JsonRefusedError(
          `expected ':' after the key "${key}" at position ${this.position}`,
        );
      }
      this.position += 1;
      // Defined rather than assigned so a "__proto__" key stays data, as with JSON.parse.
      Object.defineProperty(result, key, {
        value: this.readValue(depth),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (this.closesAfterMember('}')) return result;
    }
  }

  private readArray(depth: number): unknown[] {
    this.enter(depth);
    const result: unknown[] = [];
    if (this.closesEmpty(']')) return result;
    for (;;) {
      result.push(this.readValue(depth));
      if (this.closesAfterMember(']')) return result;
    }
  }

  private enter(depth: number): void {
    if (depth > maximumDepth) throw new JsonRefusedError('the value is nested too deeply');
    this.position += 1;
  }

  private closesEmpty(closing: string): boolean {
    this.skipWhitespace();
    if (this.text[this.position] !== closing) return false;
    this.position += 1;
    return true;
  }

  /** After a complete member: true when the container ends here (closed, or cut off and closed). */
  private closesAfterMember(closing: string): boolean {
    this.skipWhitespace();
    const character = this.text[this.position];
    if (character === undefined) {
      this.applied.add(JsonRepair.closedTruncated);
      return true;
    }
    this.position += 1;
    if (character === closing) return true;
    if (character !== ',') {
      throw new JsonRefusedError(
        `expected ',' or '${closing}' at position ${this.position - 1}, found '${character}'`,
      );
    }
    this.skipWhitespace();
    // A comma announces another member: the text was cut before it, so closing would drop it.
    if (this.position >= this.text.length)
      throw new JsonRefusedError('the text ends after a comma');
    if (this.text[this.position] !== closing) return false;
    this.applied.add(JsonRepair.trailingComma);
    this.position += 1;
    return true;
  }

  private readKey(): string {
    const character = this.text[this.position];
    if (character === undefined)
      throw new JsonRefusedError('the text ends where a key is expected');
    if (character === '"' || character === "'") return this.readString();
    wordPattern.lastIndex = this.position;
    const word = wordPattern.exec(this.text)?.[0];
    if (word === undefined) {
      throw new JsonRefusedError(
        `expected a key at position ${this.position}, found '${character}'`,
      );
    }
    this.applied.add(JsonRepair.unquotedKeys);
    this.position += word.length;
    return word;
  }

  private readString(): string {
    const read = readQuotedString(this.text, this.position, (repair) => this.applied.add(repair));
    this.position = read.end;
    return read.value;
  }

  private readNumber(depth: number): number | RawJsonNumber {
    numberPattern.lastIndex = this.position;
    const digits = numberPattern.exec(this.text)?.[0];
    if (digits === undefined)
      throw new JsonRefusedError(`invalid number at position ${this.position}`);
    this.position += digits.length;
    // `{"seconds": 30` may have been `300`: inside a container that is left open, a number touching
    // the end is not known to be whole. Alone, it is the whole document.
    if (depth > 0 && this.position >= this.text.length) {
      throw new JsonRefusedError('the text ends inside a number');
    }
    return exactNumber(Number(digits), digits);
  }

  private readLiteral(): boolean | null {
    wordPattern.lastIndex = this.position;
    const word = wordPattern.exec(this.text)?.[0];
    const literal = word === undefined ? undefined : literals.get(word);
    if (word === undefined || literal === undefined) {
      const found = word ?? this.text[this.position];
      throw new JsonRefusedError(`unexpected '${found}' at position ${this.position}`);
    }
    if (literal.python) this.applied.add(JsonRepair.pythonLiterals);
    this.position += word.length;
    return literal.value;
  }

  private skipWhitespace(): void {
    for (;;) {
      const character = this.text[this.position];
      if (character !== ' ' && character !== '\t' && character !== '\n' && character !== '\r')
        return;
      this.position += 1;
    }
  }
}
