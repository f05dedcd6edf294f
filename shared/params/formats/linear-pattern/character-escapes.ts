import { type CharacterSet, classEscape, complement, single, union } from './character-set';
import { codePoint, type PatternCursor, UnsupportedPattern } from './pattern-cursor';

const SYNTAX_CHARACTERS = '^$\\.*+?()[]{}|/-';
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, f: 12, v: 11 };

/** A class `[...]`, its `[` read: its code points (complemented after `^`), `]` consumed. */
export function characterClass(cursor: PatternCursor): CharacterSet {
  const negated = cursor.peek() === '^';
  if (negated) cursor.next();
  const parts: CharacterSet[] = [];
  while (cursor.peek() !== ']') {
    const low = classAtom(cursor);
    if (cursor.peek() === '-' && cursor.peek(1) !== ']' && cursor.peek(1) !== undefined) {
      cursor.next();
      const high = classAtom(cursor);
      parts.push([rangeEnd(low), rangeEnd(high)]);
    } else {
      parts.push(low);
    }
  }
  cursor.next();
  const set = union(...parts);
  return negated ? complement(set) : set;
}

function classAtom(cursor: PatternCursor): CharacterSet {
  const character = cursor.next();
  if (character !== '\\') return single(codePoint(character));
  if (cursor.peek() === 'b') {
    cursor.next();
    return single(8);
  }
  return characterEscape(cursor, true);
}

/** An escape, its `\` read: a class (`\d`...), a control, a hex or unicode escape, or syntax. */
export function characterEscape(cursor: PatternCursor, inClass: boolean): CharacterSet {
  const letter = cursor.next();
  const predefined = classEscape(letter);
  if (predefined !== null) return predefined;
  const control = CONTROL_ESCAPES[letter];
  if (control !== undefined) return single(control);
  if (letter === '0') return single(0);
  if (letter === 'c') return single(codePoint(cursor.next()) % 32);
  if (letter === 'x') return single(cursor.hex(2));
  if (letter === 'u') return single(unicodeEscape(cursor));
  if (letter === 'p' || letter === 'P')
    throw new UnsupportedPattern('\\p{...} property escapes are not supported');
  if (SYNTAX_CHARACTERS.includes(letter) && (letter !== '-' || inClass))
    return single(codePoint(letter));
  throw new UnsupportedPattern(`the escape \\${letter} is not supported`);
}

function unicodeEscape(cursor: PatternCursor): number {
  if (cursor.peek() === '{') {
    cursor.next();
    let text = '';
    while (cursor.peek() !== '}') text += cursor.next();
    cursor.next();
    return Number.parseInt(text, 16);
  }
  const unit = cursor.hex(4);
  // In u mode an escaped surrogate pair is one code point.
  const isHigh = unit >= 0xd800 && unit <= 0xdbff;
  if (isHigh && cursor.peek() === '\\' && cursor.peek(1) === 'u' && cursor.peek(2) !== '{') {
    const saved = cursor.position;
    cursor.position += 2;
    const low = cursor.hex(4);
    if (low >= 0xdc00 && low <= 0xdfff) return (unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
    cursor.position = saved;
  }
  return unit;
}

// `[\d-x]` is a syntax error in u mode, so a range end is always one code point.
function rangeEnd(set: CharacterSet): number {
  if (set.length !== 2 || set[0] !== set[1])
    throw new UnsupportedPattern('a class escape cannot end a range');
  return set[0] ?? 0;
}
