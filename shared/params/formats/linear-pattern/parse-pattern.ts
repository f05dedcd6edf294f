import { failure, type Result, success } from '../../../result';
import {
  ANY_BUT_LINE_TERMINATOR,
  type CharacterSet,
  classEscape,
  complement,
  single,
  union,
} from './character-set';

export type Assertion = 'start' | 'end' | 'word_boundary' | 'not_word_boundary';

/** A pattern as a tree: what the linear matcher compiles. Groups are only structure here. */
export type PatternNode =
  | { readonly kind: 'empty' }
  | { readonly kind: 'characters'; readonly set: CharacterSet }
  | { readonly kind: 'assertion'; readonly assertion: Assertion }
  | { readonly kind: 'sequence'; readonly items: readonly PatternNode[] }
  | { readonly kind: 'alternation'; readonly branches: readonly PatternNode[] }
  | {
      readonly kind: 'repetition';
      readonly item: PatternNode;
      readonly min: number;
      readonly max: number;
    };

/** Thrown inside the parser only; `parsePattern` turns it into a value. */
class UnsupportedPattern {
  constructor(readonly reason: string) {}
}

const SYNTAX_CHARACTERS = '^$\\.*+?()[]{}|/-';
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, f: 12, v: 11 };

/**
 * Parses an ECMAScript pattern in `u` mode (how ajv reads JSON Schema patterns) that
 * `new RegExp(pattern, 'u')` already accepted. Everything a finite automaton can run is
 * supported; backreferences, lookaround, `\p{...}` and inline modifiers are refused with the reason.
 */
export function parsePattern(pattern: string): Result<PatternNode, string> {
  const parser = new PatternParser(Array.from(pattern));
  try {
    const node = parser.alternation();
    if (!parser.done()) return failure([`unexpected ${parser.peek()} in the pattern`]);
    return success(node);
  } catch (error) {
    if (error instanceof UnsupportedPattern) return failure([error.reason]);
    throw error;
  }
}

class PatternParser {
  #position = 0;

  constructor(private readonly characters: readonly string[]) {}

  done(): boolean {
    return this.#position >= this.characters.length;
  }

  peek(offset = 0): string | undefined {
    return this.characters[this.#position + offset];
  }

  next(): string {
    const character = this.characters[this.#position];
    if (character === undefined) throw new UnsupportedPattern('the pattern ends too early');
    this.#position += 1;
    return character;
  }

  alternation(): PatternNode {
    const branches = [this.sequence()];
    while (this.peek() === '|') {
      this.next();
      branches.push(this.sequence());
    }
    return branches.length === 1 ? (branches[0] ?? EMPTY) : { kind: 'alternation', branches };
  }

  sequence(): PatternNode {
    const items: PatternNode[] = [];
    while (!this.done() && this.peek() !== '|' && this.peek() !== ')') {
      items.push(this.quantified(this.atom()));
    }
    if (items.length === 0) return EMPTY;
    return items.length === 1 ? (items[0] ?? EMPTY) : { kind: 'sequence', items };
  }

  quantified(item: PatternNode): PatternNode {
    const bounds = this.quantifier();
    if (bounds === null) return item;
    if (this.peek() === '?') this.next(); // lazy or greedy: the same set of matching strings
    return { kind: 'repetition', item, min: bounds[0], max: bounds[1] };
  }

  quantifier(): [number, number] | null {
    const character = this.peek();
    if (character === '*' || character === '+' || character === '?') {
      this.next();
      return [character === '+' ? 1 : 0, character === '?' ? 1 : Number.POSITIVE_INFINITY];
    }
    if (character !== '{') return null;
    this.next();
    const min = this.digits();
    let max = min;
    if (this.peek() === ',') {
      this.next();
      max = this.peek() === '}' ? Number.POSITIVE_INFINITY : this.digits();
    }
    this.expect('}');
    return [min, max];
  }

  digits(): number {
    let text = '';
    while (/[0-9]/.test(this.peek() ?? '')) text += this.next();
    if (text === '') throw new UnsupportedPattern('a quantifier needs a number');
    return Number(text);
  }

  expect(character: string): void {
    if (this.next() !== character) throw new UnsupportedPattern(`expected ${character}`);
  }

  atom(): PatternNode {
    const character = this.next();
    switch (character) {
      case '^':
        return { kind: 'assertion', assertion: 'start' };
      case '$':
        return { kind: 'assertion', assertion: 'end' };
      case '.':
        return { kind: 'characters', set: ANY_BUT_LINE_TERMINATOR };
      case '(':
        return this.group();
      case '[':
        return { kind: 'characters', set: this.characterClass() };
      case '\\':
        return this.atomEscape();
      default:
        return { kind: 'characters', set: single(codePoint(character)) };
    }
  }

  group(): PatternNode {
    if (this.peek() === '?') {
      this.next();
      const kind = this.next();
      if (kind === '<' && this.peek() !== '=' && this.peek() !== '!') {
        let character = this.next();
        while (character !== '>') character = this.next();
      } else if (kind !== ':') {
        throw new UnsupportedPattern(
          kind === '=' || kind === '!' || kind === '<'
            ? 'lookahead and lookbehind are not supported'
            : `the group (?${kind} is not supported`,
        );
      }
    }
    const inner = this.alternation();
    this.expect(')');
    return inner;
  }

  atomEscape(): PatternNode {
    const letter = this.peek() ?? '';
    if (letter === 'b' || letter === 'B') {
      this.next();
      return {
        kind: 'assertion',
        assertion: letter === 'b' ? 'word_boundary' : 'not_word_boundary',
      };
    }
    if (/[1-9]/.test(letter) || letter === 'k')
      throw new UnsupportedPattern('backreferences are not supported');
    return { kind: 'characters', set: this.characterEscape(false) };
  }

  characterClass(): CharacterSet {
    const negated = this.peek() === '^';
    if (negated) this.next();
    const parts: CharacterSet[] = [];
    while (this.peek() !== ']') {
      const low = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.next();
        const high = this.classAtom();
        parts.push([rangeEnd(low), rangeEnd(high)]);
      } else {
        parts.push(low);
      }
    }
    this.next();
    const set = union(...parts);
    return negated ? complement(set) : set;
  }

  classAtom(): CharacterSet {
    const character = this.next();
    if (character !== '\\') return single(codePoint(character));
    if (this.peek() === 'b') {
      this.next();
      return single(8);
    }
    return this.characterEscape(true);
  }

  characterEscape(inClass: boolean): CharacterSet {
    const letter = this.next();
    const predefined = classEscape(letter);
    if (predefined !== null) return predefined;
    const control = CONTROL_ESCAPES[letter];
    if (control !== undefined) return single(control);
    if (letter === '0') return single(0);
    if (letter === 'c') return single(codePoint(this.next()) % 32);
    if (letter === 'x') return single(this.hex(2));
    if (letter === 'u') return single(this.unicodeEscape());
    if (letter === 'p' || letter === 'P')
      throw new UnsupportedPattern('\\p{...} property escapes are not supported');
    if (SYNTAX_CHARACTERS.includes(letter) && (letter !== '-' || inClass))
      return single(codePoint(letter));
    throw new UnsupportedPattern(`the escape \\${letter} is not supported`);
  }

  unicodeEscape(): number {
    if (this.peek() === '{') {
      this.next();
      let text = '';
      while (this.peek() !== '}') text += this.next();
      this.next();
      return Number.parseInt(text, 16);
    }
    const unit = this.hex(4);
    // In u mode an escaped surrogate pair is one code point.
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    if (isHigh && this.peek() === '\\' && this.peek(1) === 'u' && this.peek(2) !== '{') {
      const saved = this.#position;
      this.#position += 2;
      const low = this.hex(4);
      if (low >= 0xdc00 && low <= 0xdfff) return (unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
      this.#position = saved;
    }
    return unit;
  }

  hex(length: number): number {
    let text = '';
    for (let index = 0; index < length; index += 1) text += this.next();
    if (!/^[0-9a-fA-F]+$/.test(text)) throw new UnsupportedPattern('a bad hexadecimal escape');
    return Number.parseInt(text, 16);
  }
}

const EMPTY: PatternNode = { kind: 'empty' };

function codePoint(character: string): number {
  return character.codePointAt(0) ?? 0;
}

// `[\d-x]` is a syntax error in u mode, so a range end is always one code point.
function rangeEnd(set: CharacterSet): number {
  if (set.length !== 2 || set[0] !== set[1])
    throw new UnsupportedPattern('a class escape cannot end a range');
  return set[0] ?? 0;
}
