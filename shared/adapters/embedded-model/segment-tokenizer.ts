import type { LlamaModel, Token } from 'node-llama-cpp';

/** Segments kept; a command set's prompt has one long one (its system prompt and tools). */
const SEGMENTS_KEPT = 64;
/** Where a chat template opens a message: a special token, which no text token spans. */
const MESSAGE_START = '<|im_start|>';

/**
 * The prompt's tokens, each message tokenized once while it is in use: the text is cut before
 * every `<|im_start|>` (a special token: the tokenizer cuts there too, so the tokens are the
 * whole text's), and the segments seen lately are kept. A command set's system prompt and tools
 * (about 2.7k tokens, tens of milliseconds to tokenize) are then tokenized once, not per turn.
 */
export class SegmentTokenizer {
  readonly #model: LlamaModel;
  readonly #segments = new Map<string, readonly Token[]>();

  constructor(model: LlamaModel) {
    this.#model = model;
  }

  tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    for (const segment of text.split(new RegExp(`(?=${escaped(MESSAGE_START)})`))) {
      let segmentTokens = this.#segments.get(segment);
      if (segmentTokens === undefined) {
        segmentTokens = this.#model.tokenize(segment, true);
        if (this.#segments.size >= SEGMENTS_KEPT) this.#segments.clear();
        this.#segments.set(segment, segmentTokens);
      }
      tokens.push(...segmentTokens);
    }
    return tokens;
  }
}

const escaped = (text: string) => text.replace(/[|]/g, '\\|');
