import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { IM_END, IM_START, type PromptPiece } from './chat-template';

/** Ids outside o200k's range for the two special tokens of the template. */
const SPECIAL_IDS = new Map<PromptPiece, number>([
  [IM_START, -1],
  [IM_END, -2],
]);

/** Pieces tokenized before (the system prompt with the tools above all), so a turn costs a lookup. */
const MEMO_LIMIT = 256;

/**
 * Tokenizes prompt pieces with o200k (gpt-tokenizer, pure JS, its ranks in the package), piece by
 * piece: the special tokens never meet the text around them, as in a real template, and the same
 * piece always gives the same tokens, which is what a prefix cache compares.
 */
export function createPieceTokenizer(): (pieces: readonly PromptPiece[]) => number[] {
  const memo = new Map<string, readonly number[]>();
  const tokensOf = (piece: string): readonly number[] => {
    let tokens = memo.get(piece);
    if (tokens === undefined) {
      // Text that merely spells a special token (`<|endoftext|>` in a message) is plain text here.
      tokens = encode(piece, { disallowedSpecial: new Set() });
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(piece, tokens);
    }
    return tokens;
  };
  return (pieces) => {
    const tokens: number[] = [];
    for (const piece of pieces) {
      const special = SPECIAL_IDS.get(piece);
      if (special !== undefined) tokens.push(special);
      else if (typeof piece === 'string') tokens.push(...tokensOf(piece));
    }
    return tokens;
  };
}

/** The first `count` o200k tokens of `text`, as text: a reply cut off at `max_tokens`. */
export function firstTokensOf(text: string, count: number): string {
  return decode(encode(text, { disallowedSpecial: new Set() }).slice(0, Math.max(0, count)));
}
