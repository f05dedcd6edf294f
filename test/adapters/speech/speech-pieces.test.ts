import { describe, expect, it } from 'vitest';
import { SPEECH_PIECE_LIMITS, speechPieces } from '../../../shared/adapters/speech/speech-pieces';

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
