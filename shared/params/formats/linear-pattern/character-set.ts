/** A set of code points: sorted, non-overlapping inclusive ranges `[low, high]`, flattened. */
export type CharacterSet = readonly number[];

const MAX_CODE_POINT = 0x10ffff;

/** The set of exactly one code point. */
export function single(codePoint: number): CharacterSet {
  return [codePoint, codePoint];
}

/** The union of ranges given in any order (flattened pairs), merged and sorted. */
export function union(...sets: readonly (readonly number[])[]): CharacterSet {
  const pairs: [number, number][] = [];
  for (const set of sets) {
    for (let index = 0; index + 1 < set.length; index += 2) {
      pairs.push([set[index] ?? 0, set[index + 1] ?? 0]);
    }
  }
  pairs.sort((left, right) => left[0] - right[0]);
  const merged: number[] = [];
  for (const [low, high] of pairs) {
    const last = merged.length - 1;
    if (last > 0 && low <= (merged[last] ?? 0) + 1) {
      merged[last] = Math.max(merged[last] ?? 0, high);
    } else {
      merged.push(low, high);
    }
  }
  return merged;
}

/** Every code point not in `set`. */
export function complement(set: CharacterSet): CharacterSet {
  const result: number[] = [];
  let next = 0;
  for (let index = 0; index + 1 < set.length; index += 2) {
    const low = set[index] ?? 0;
    if (low > next) result.push(next, low - 1);
    next = (set[index + 1] ?? 0) + 1;
  }
  if (next <= MAX_CODE_POINT) result.push(next, MAX_CODE_POINT);
  return result;
}

/** Whether `codePoint` is in `set` (binary search over the ranges). */
export function contains(set: CharacterSet, codePoint: number): boolean {
  let low = 0;
  let high = set.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < (set[middle * 2] ?? 0)) high = middle - 1;
    else if (codePoint > (set[middle * 2 + 1] ?? 0)) low = middle + 1;
    else return true;
  }
  return false;
}

const code = (character: string): number => character.codePointAt(0) ?? 0;

const DIGITS: CharacterSet = [code('0'), code('9')];
export const WORD_CHARACTERS: CharacterSet = union(
  [code('0'), code('9')],
  [code('A'), code('Z')],
  [code('_'), code('_')],
  [code('a'), code('z')],
);
/** What `\s` matches: ECMAScript WhiteSpace and LineTerminator. */
const WHITE_SPACE: CharacterSet = union(
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
);
/** What `.` matches without the `s` flag: anything but a line terminator. */
export const ANY_BUT_LINE_TERMINATOR: CharacterSet = complement(
  union([0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]),
);

/** The set of a class escape letter (`d`, `D`, `w`, `W`, `s`, `S`), or null for another letter. */
export function classEscape(letter: string): CharacterSet | null {
  switch (letter) {
    case 'd':
      return DIGITS;
    case 'D':
      return complement(DIGITS);
    case 'w':
      return WORD_CHARACTERS;
    case 'W':
      return complement(WORD_CHARACTERS);
    case 's':
      return WHITE_SPACE;
    case 'S':
      return complement(WHITE_SPACE);
    default:
      return null;
  }
}
