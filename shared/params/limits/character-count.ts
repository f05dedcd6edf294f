/**
 * Characters as every stated limit counts them: Unicode code points, as the schemas' `maxLength`
 * does (an emoji is one character, not its two UTF-16 units). A limit checked on `text.length`
 * refuses a text of the limit's length in emoji or the rarer CJK ideographs.
 */
export function characterCount(text: string): number {
  let characters = text.length;
  for (let index = 1; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const before = text.charCodeAt(index - 1);
    // A low surrogate after a high one: the pair is one code point.
    if (unit >= 0xdc00 && unit <= 0xdfff && before >= 0xd800 && before <= 0xdbff) {
      characters -= 1;
      index += 1;
    }
  }
  return characters;
}

/**
 * Whether `text` holds at most `max` characters (`characterCount`). Its UTF-16 length bounds the
 * count (a code point is one or two units), so only a text between `max` and twice it is counted.
 */
export function withinCharacters(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > 2 * max) return false;
  return characterCount(text) <= max;
}
