/** `<think>` and `<thinking>`, opening or closing, exactly as reasoning models write them. */
const thinkTag = /<(\/?)think(?:ing)?>/g;

/**
 * Removes the model's reasoning from its text. `<think>...</think>` blocks go; an unclosed
 * `<think>` hides everything after it (the model was cut off while thinking); a `</think>` with no
 * opening hides everything before it (servers whose chat template already opened the block
 * only send its end).
 */
export function stripThinkBlocks(text: string): string {
  let kept = '';
  let keptFrom = 0;
  let insideFrom: number | null = null;
  for (const tag of text.matchAll(thinkTag)) {
    const closing = tag[1] === '/';
    const tagEnd = tag.index + tag[0].length;
    if (!closing && insideFrom === null) {
      kept += text.slice(keptFrom, tag.index);
      insideFrom = tag.index;
    } else if (closing && insideFrom !== null) {
      insideFrom = null;
      keptFrom = tagEnd;
    } else if (closing) {
      kept = '';
      keptFrom = tagEnd;
    }
    // An opening tag inside a block is part of the reasoning: nothing to do.
  }
  return insideFrom === null ? kept + text.slice(keptFrom) : kept;
}
