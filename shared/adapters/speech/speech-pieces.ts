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

/**
 * The most speech one character makes, with a margin: in a run of `_`, `\\`, `&` or `*` each is
 * read as a word ("underscore"), up to 0.64 s (every printable ASCII character measured in a
 * run of 24 and spaced). A token Flite reads as a word (`WORD_LIKE`) makes far less.
 */
export const MAX_SECONDS_PER_CHARACTER = 0.7;

/** The most speech a character of a word-like token makes (prose: about 0.07 s). */
export const WORD_SECONDS_PER_CHARACTER = 0.15;

/**
 * A token Flite reads as a word, not letter by letter or symbol by symbol: lowercase letters
 * (a capital first) with a vowel, no letter three times in a row, and a sentence's punctuation.
 */
const WORD_LIKE = /^(?=[^aeiouy]*[aeiouy])(?!.*(\p{L})\1\1)[A-Za-z]?[a-z']*[a-z][,.!?;:]?$/u;

/**
 * How long the first piece may last at its slowest: its audio is made whole before the first
 * byte is sent, so this bounds the wait for it and what a node that leaves after it has cost
 * (120 digits took 0.6-1 s of CPU before the first byte). A sentence of prose up to about 100
 * characters stays whole.
 */
export const FIRST_PIECE_SECONDS = 15;

/**
 * How far past the spoken limit a piece may be planned to last at its slowest: the speech made
 * past the limit is thrown away, so this bounds that waste (about 0.5 s of CPU), while pieces
 * far from the limit keep their whole size (a piece boundary adds a pause and a Flite run).
 */
export const SPOKEN_OVERRUN_SECONDS = 30;

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

/** The longest `token` could be spoken, in seconds. */
function slowestSeconds(token: string): number {
  const perCharacter = WORD_LIKE.test(token)
    ? WORD_SECONDS_PER_CHARACTER
    : MAX_SECONDS_PER_CHARACTER;
  return [...token].length * perCharacter;
}

/**
 * `piece`'s head that cannot be spoken much past `seconds` (each token at its slowest, but
 * never less than one token), cut after its last sentence that fits, else at a token, and the
 * rest (null: none). Near the spoken limit a piece is spoken in smaller parts, so that the piece
 * that passes it, whose speech past the limit is made and thrown away, costs little: a
 * 120-character piece of underscores lasts 77 s, over 1 s of CPU.
 */
export function pieceWithin(
  piece: string,
  seconds: number,
): { readonly head: string; readonly rest: string | null } {
  const tokens = piece.split(' ');
  let fits = 0;
  let sentenceFits = 0;
  let slowest = 0;
  for (const token of tokens) {
    slowest += slowestSeconds(token);
    if (fits > 0 && slowest > seconds) break;
    fits += 1;
    if (/[.!?;:]$/u.test(token)) sentenceFits = fits;
  }
  if (fits === tokens.length) return { head: piece, rest: null };
  const at = sentenceFits > 0 ? sentenceFits : fits;
  return { head: tokens.slice(0, at).join(' '), rest: tokens.slice(at).join(' ') };
}
