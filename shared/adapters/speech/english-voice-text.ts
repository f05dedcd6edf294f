/**
 * What the embedded synthesizer's voices (Flite's, English) can say: ASCII letters and digits,
 * and the ASCII symbols they name. Flite reads any other byte as nothing: "你好", "Привет" or
 * fullwidth "ｈｅｌｌｏ" were a 200 with 0.2 s of silence, a success for a text nobody heard.
 */

/** A text as the voice reads it, or the first letter or digit it cannot say. */
export type EnglishVoiceText =
  | { readonly ok: true; readonly text: string }
  | {
      readonly ok: false;
      readonly character: string;
      /** Where it stands in the text, in characters (code points). */
      readonly index: number;
    };

/** Letters that do not decompose into ASCII ones, spelled as English reads them. */
const SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'Th',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŋ: 'ng',
  Ŋ: 'NG',
  µ: 'micro',
};

/** Typographic punctuation a model writes, as the ASCII Flite reads (an apostrophe in "don’t"). */
const TYPOGRAPHIC: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2044': '/',
};

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
const MARKS = /\p{M}/gu;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/u;

/**
 * `text` as the English voice reads it, character by character: a letter or digit in its
 * compatibility form without its accents (é → e, fullwidth ｈ → h, ① → 1), or spelled (ß → ss);
 * combining marks left out (a run of 3,000 of them was 25 Flite runs of nothing); typographic
 * quotes and dashes as ASCII. A letter or digit of another script (CJK, Cyrillic, Arabic...)
 * cannot be said: the first one is returned. Symbols, emoji and other punctuation are kept as
 * they are: no voice reads them, and Flite passes over them.
 */
export function englishVoiceText(text: string): EnglishVoiceText {
  let read = '';
  let index = 0;
  for (const character of text) {
    const typographic = TYPOGRAPHIC[character];
    if (PRINTABLE_ASCII.test(character)) read += character;
    else if (typographic !== undefined) read += typographic;
    else if (MARK.test(character)) {
      // A combining mark says nothing the letter before it does not.
    } else if (!LETTER_OR_DIGIT.test(character)) read += character;
    else {
      const spelled =
        SPELLED[character] ??
        character.normalize('NFKD').replace(MARKS, '').replaceAll('\u2044', '/');
      if (!PRINTABLE_ASCII.test(spelled)) return { ok: false, character, index };
      read += spelled;
    }
    index += 1;
  }
  return { ok: true, text: read };
}
