import { describe, expect, it } from 'vitest';
import {
  MAX_SECONDS_PER_CHARACTER,
  pieceWithin,
  SPEECH_PIECE_LIMITS,
  speechPieces,
  WORD_SECONDS_PER_CHARACTER,
} from '../../../shared/adapters/speech/speech-pieces';

const codePoints = (text: string) => [...text].length;

describe('speechPieces', () => {
  it('speaks the first sentence alone, then packs the others into pieces', () => {
    expect(speechPieces('It is sunny. Take a hat!  Done?\nYes')).toEqual([
      'It is sunny.',
      'Take a hat! Done? Yes',
    ]);
  });

  it.each([
    ['dots', '. '],
    ['question marks', '? '],
    ['short sentences', 'Hi. '],
    ['lines', 'a\n'],
    ['colons', 'a: '],
  ])(
    'packs 3,000 characters of one-word sentences (%s) into a few dozen pieces, not thousands',
    (_name, unit) => {
      // Prepare: each a sentence of its own, each a Flite run of its own before.
      const text = unit.repeat(3_000 / unit.length);

      // Act
      const pieces = speechPieces(text);

      // Assess
      const most = Math.ceil((2 * 3_000) / SPEECH_PIECE_LIMITS.pieceCharacters) + 1;
      expect(pieces.length).toBeLessThanOrEqual(most);
      for (const piece of pieces)
        expect(codePoints(piece)).toBeLessThanOrEqual(SPEECH_PIECE_LIMITS.pieceCharacters);
      expect(pieces.join('').replace(/\s/gu, '')).toBe(text.replace(/\s/gu, ''));
    },
  );

  it.each([
    ['digits', '7'.repeat(3_000)],
    ['dots', '.'.repeat(3_000)],
    ['emoji', '😀'.repeat(1_500)],
    ['words', 'word '.repeat(600)],
  ])('cuts a long run of %s into pieces and tokens Flite holds, losing nothing', (_name, text) => {
    // Act
    const pieces = speechPieces(text);

    // Assess
    for (const piece of pieces) {
      expect(codePoints(piece)).toBeLessThanOrEqual(SPEECH_PIECE_LIMITS.pieceCharacters);
      for (const token of piece.split(' '))
        expect(codePoints(token)).toBeLessThanOrEqual(SPEECH_PIECE_LIMITS.tokenCharacters);
    }
    expect(pieces.join('').replaceAll(' ', '')).toBe(text.replaceAll(' ', ''));
  });

  it('never splits a character made of two UTF-16 units', () => {
    const pieces = speechPieces('😀'.repeat(100));

    expect(pieces.join('')).not.toMatch(/[\uD800-\uDFFF](?![\uDC00-\uDFFF])(?<![\uD800-\uDBFF])/u);
    expect(pieces.join('').replaceAll(' ', '')).toBe('😀'.repeat(100));
  });

  it('has nothing to speak in whitespace', () => {
    expect(speechPieces(' \n\t ')).toEqual([]);
  });
});

describe('pieceWithin', () => {
  /** A word Flite reads as a word: at most WORD_SECONDS_PER_CHARACTER a character. */
  const WORD_SECONDS = 4 * WORD_SECONDS_PER_CHARACTER;
  const piece = speechPieces(`Hi. ${'word '.repeat(24)}`)[1] as string;

  it('keeps a piece whole when even its slowest speech fits', () => {
    expect(pieceWithin(piece, 24 * WORD_SECONDS)).toEqual({ head: piece, rest: null });
  });

  it.each([10, 3, 0, -5])(
    'cuts a piece of words to what %s s may hold at their slowest, never under one, losing nothing',
    (seconds) => {
      // Act
      const { head, rest } = pieceWithin(piece, seconds);

      // Assess
      const words = Math.max(1, Math.floor(seconds / WORD_SECONDS));
      expect(head).toBe(Array.from({ length: words }, () => 'word').join(' '));
      expect(`${head} ${rest}`).toBe(piece);
    },
  );

  it('counts a token Flite reads symbol by symbol or letter by letter at the slowest', () => {
    // Prepare: 24 ampersands last about 15 s; 24 letters of a word about 2 s.
    const run = (character: string) => character.repeat(SPEECH_PIECE_LIMITS.tokenCharacters);
    const symbols = `${run('&')} ${run('&')} ${run('&')}`;
    const spelled = `${run('W')} ${run('W')} ${run('W')}`;

    // Act
    const cutSymbols = pieceWithin(symbols, 20);
    const cutSpelled = pieceWithin(spelled, 20);

    // Assess
    expect(cutSymbols).toEqual({ head: run('&'), rest: `${run('&')} ${run('&')}` });
    expect(cutSpelled).toEqual({ head: run('W'), rest: `${run('W')} ${run('W')}` });
    expect(MAX_SECONDS_PER_CHARACTER * SPEECH_PIECE_LIMITS.tokenCharacters).toBeLessThan(20);
  });

  it('cuts after the last sentence that fits rather than inside one', () => {
    const { head, rest } = pieceWithin('One two. Three four five six seven.', 5 * WORD_SECONDS);

    expect(head).toBe('One two.');
    expect(rest).toBe('Three four five six seven.');
  });

  it('cuts a run of emoji by tokens, never inside a character', () => {
    const emoji = speechPieces(`Hi. ${'😀'.repeat(100)}`)[1] as string;

    const { head, rest } = pieceWithin(emoji, 0);

    expect(head).toBe('😀'.repeat(SPEECH_PIECE_LIMITS.tokenCharacters));
    expect(`${head} ${rest}`).toBe(emoji);
  });
});
