/**
 * The embedded synthesizer speaks a text piece by piece (one Flite run each), so that its work
 * is bounded per piece, stops between pieces, and never meets Flite's limits: a run of 400
 * dots, commas or question marks in one token overwrites Flite's memory ("memory access out of
 * bounds"), and one run over a whole 3,000-character text takes 30 s.
 */
export const SPEECH_PIECE_LIMITS = {
  /** Characters (code points) of one piece: a sentence, or a part of a longer one. */
  pieceCharacters: 120,
  /** Characters of one token (a run without whitespace) Flite is given; longer ones are split. */
  tokenCharacters: 24,
} as const;

const SENTENCE_END = /(?<=[.!?;:])\s+|\n+/u;

/**
 * `text` as the pieces to speak in order: its first sentence alone (the first audio comes
 * soon), then the others packed into pieces of up to `pieceCharacters`, a sentence longer than a
 * piece cut at whitespace, a token longer than `tokenCharacters` cut into such runs (a long
 * number is then read in groups of digits, a row of dots or emoji costs Flite nothing it cannot
 * hold). Pieces with nothing but whitespace are left out.
 *
 * Packed, because each piece is one Flite run with a fixed cost (an instance and its 16 MiB,
 * about 7 ms of CPU): 1,500 sentences of ". " were 1,500 runs, 11.5 s of CPU for 62 s of
 * near-silence; packed they are 26.
 */
export function speechPieces(text: string): string[] {
  const [first, ...rest] = sentencePieces(text);
  if (first === undefined) return [];
  const pieces = [first];
  let packed = '';
  for (const piece of rest) {
    const joined = packed === '' ? piece : `${packed} ${piece}`;
    if ([...joined].length <= SPEECH_PIECE_LIMITS.pieceCharacters) {
      packed = joined;
      continue;
    }
    pieces.push(packed);
    packed = piece;
  }
  if (packed !== '') pieces.push(packed);
  return pieces;
}

/** The text's sentences, each cut into pieces of at most `pieceCharacters`. */
function sentencePieces(text: string): string[] {
  const pieces: string[] = [];
  for (const sentence of text.split(SENTENCE_END)) {
    const tokens = sentence
      .split(/\s+/u)
      .filter((token) => token !== '')
      .flatMap(cutToken);
    let piece: string[] = [];
    let length = 0;
    for (const token of tokens) {
      const size = [...token].length;
      if (piece.length > 0 && length + 1 + size > SPEECH_PIECE_LIMITS.pieceCharacters) {
        pieces.push(piece.join(' '));
        piece = [];
        length = 0;
      }
      length += (piece.length > 0 ? 1 : 0) + size;
      piece.push(token);
    }
    if (piece.length > 0) pieces.push(piece.join(' '));
  }
  return pieces;
}

function cutToken(token: string): string[] {
  const characters = [...token];
  const limit = SPEECH_PIECE_LIMITS.tokenCharacters;
  if (characters.length <= limit) return [token];
  const runs: string[] = [];
  for (let at = 0; at < characters.length; at += limit)
    runs.push(characters.slice(at, at + limit).join(''));
  return runs;
}
