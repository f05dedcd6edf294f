import { failure, type Result, success } from '../../../result';
import { characterClass, characterEscape } from './character-escapes';
import { ANY_BUT_LINE_TERMINATOR, type CharacterSet, single } from './character-set';
import { codePoint, PatternCursor, UnsupportedPattern } from './pattern-cursor';

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

/**
 * Parses an ECMAScript pattern in `u` mode (how ajv reads JSON Schema patterns) that
 * `new RegExp(pattern, 'u')` already accepted. Everything a finite automaton can run is
 * supported; backreferences, lookaround, `\p{...}` and inline modifiers are refused with the reason.
 */
export function parsePattern(pattern: string): Result<PatternNode, string> {
  const parser = new PatternParser(new PatternCursor(Array.from(pattern)));
  try {
    const node = parser.alternation();
    if (!parser.cursor.done())
      return failure([`unexpected ${parser.cursor.peek()} in the pattern`]);
    return success(node);
  } catch (error) {
    if (error instanceof UnsupportedPattern) return failure([error.reason]);
    throw error;
  }
}

/** Alternations, sequences, quantifiers and atoms; character escapes and classes apart. */
class PatternParser {
  constructor(readonly cursor: PatternCursor) {}

  alternation(): PatternNode {
    const branches = [this.sequence()];
    while (this.cursor.peek() === '|') {
      this.cursor.next();
      branches.push(this.sequence());
    }
    return branches.length === 1 ? (branches[0] ?? EMPTY) : { kind: 'alternation', branches };
  }

  sequence(): PatternNode {
    const items: PatternNode[] = [];
    while (!this.cursor.done() && this.cursor.peek() !== '|' && this.cursor.peek() !== ')') {
      items.push(this.quantified(this.atom()));
    }
    if (items.length === 0) return EMPTY;
    return items.length === 1 ? (items[0] ?? EMPTY) : { kind: 'sequence', items };
  }

  quantified(item: PatternNode): PatternNode {
    const bounds = this.quantifier();
    if (bounds === null) return item;
    if (this.cursor.peek() === '?') this.cursor.next(); // lazy or greedy: the same set of matching strings
    return { kind: 'repetition', item, min: bounds[0], max: bounds[1] };
  }

  quantifier(): [number, number] | null {
    const character = this.cursor.peek();
    if (character === '*' || character === '+' || character === '?') {
      this.cursor.next();
      return [character === '+' ? 1 : 0, character === '?' ? 1 : Number.POSITIVE_INFINITY];
    }
    if (character !== '{') return null;
    this.cursor.next();
    const min = this.cursor.digits();
    let max = min;
    if (this.cursor.peek() === ',') {
      this.cursor.next();
      max = this.cursor.peek() === '}' ? Number.POSITIVE_INFINITY : this.cursor.digits();
    }
    this.cursor.expect('}');
    return [min, max];
  }

  atom(): PatternNode {
    const character = this.cursor.next();
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
        return { kind: 'characters', set: characterClass(this.cursor) };
      case '\\':
        return this.atomEscape();
      default:
        return { kind: 'characters', set: single(codePoint(character)) };
    }
  }

  group(): PatternNode {
    if (this.cursor.peek() === '?') {
      this.cursor.next();
      const kind = this.cursor.next();
      if (kind === '<' && this.cursor.peek() !== '=' && this.cursor.peek() !== '!') {
        let character = this.cursor.next();
        while (character !== '>') character = this.cursor.next();
      } else if (kind !== ':') {
        throw new UnsupportedPattern(
          kind === '=' || kind === '!' || kind === '<'
            ? 'lookahead and lookbehind are not supported'
            : `the group (?${kind} is not supported`,
        );
      }
    }
    const inner = this.alternation();
    this.cursor.expect(')');
    return inner;
  }

  atomEscape(): PatternNode {
    const letter = this.cursor.peek() ?? '';
    if (letter === 'b' || letter === 'B') {
      this.cursor.next();
      return {
        kind: 'assertion',
        assertion: letter === 'b' ? 'word_boundary' : 'not_word_boundary',
      };
    }
    if (/[1-9]/.test(letter) || letter === 'k')
      throw new UnsupportedPattern('backreferences are not supported');
    return { kind: 'characters', set: characterEscape(this.cursor, false) };
  }
}

const EMPTY: PatternNode = { kind: 'empty' };
