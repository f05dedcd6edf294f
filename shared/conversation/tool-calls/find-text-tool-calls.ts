import { findFencedToolCalls } from './fenced-tool-calls';
import { findFunctionTagToolCalls } from './function-tag-tool-calls';
import { findPythonTagToolCalls } from './python-tag-tool-calls';
import { findTaggedToolCalls } from './tagged-tool-calls';
import type { TextToolCallSpan, ToolCallCandidate } from './tool-call-candidate';
import { findWholeTextToolCalls } from './whole-text-tool-calls';

/**
 * Passes over what is left once calls are taken out. Taking a call out can complete another
 * (`{"name": ...<|python_tag|>...`: the JSON before the tag is a call once the tag's call is
 * gone; an unclosed fence around a `<tool_call>` parses once the tag is gone). Three passes read
 * every nesting a model produces; what still holds a call after them is not spoken at all.
 */
const MAX_PASSES = 3;

/**
 * Finds the tool calls a model wrote into its text and removes their markup from it. Every
 * stretch in a tool-call form counts, whatever tool it names: a call of an undeclared tool is the
 * validator's to report (an unknown-tool retry), and its markup must never be spoken to the user.
 * JSON inside prose, or JSON not shaped as a call, stays text. Overlapping finds (a
 * `<function=...>` inside a `<tool_call>`) go to the one that starts first. Calls are returned in
 * the order they start in the text. Each form reads the bodies of its first `maxCalls` calls only
 * (the rest are dropped unread), so each pass is linear in the text however many calls it holds,
 * and there are at most MAX_PASSES + 1 of them.
 */
export function findTextToolCalls(
  text: string,
  maxCalls = Number.POSITIVE_INFINITY,
): {
  readonly text: string;
  readonly calls: readonly ToolCallCandidate[];
} {
  let kept = new KeptText(text);
  const found: { readonly at: number; readonly calls: readonly ToolCallCandidate[] }[] = [];
  for (let pass = 0; pass <= MAX_PASSES; pass += 1) {
    const spans = takenSpans(kept.text, maxCalls);
    if (spans.length === 0) break;
    for (const span of spans) found.push({ at: kept.sourceOffset(span.start), calls: span.calls });
    // Past the last pass the text still held a call: nothing of it is spoken.
    kept = pass === MAX_PASSES ? new KeptText('') : kept.without(spans);
  }
  found.sort((left, right) => left.at - right.at);
  return { text: kept.text, calls: found.flatMap((find) => find.calls) };
}

/** The spans of one pass that do not overlap an earlier one, in order. */
function takenSpans(text: string, maxCalls: number): TextToolCallSpan[] {
  const spans = [
    ...findTaggedToolCalls(text, 'tool_call', maxCalls),
    ...findTaggedToolCalls(text, 'tool', maxCalls),
    ...findFunctionTagToolCalls(text, maxCalls),
    ...findFencedToolCalls(text, maxCalls),
    ...findPythonTagToolCalls(text, maxCalls),
    ...findWholeTextToolCalls(text),
  ]
    .filter((span) => span.calls.length > 0)
    .sort(byStartThenLongest);
  const taken: TextToolCallSpan[] = [];
  for (const span of spans) {
    if (span.start >= (taken.at(-1)?.end ?? 0)) taken.push(span);
  }
  return taken;
}

function byStartThenLongest(left: TextToolCallSpan, right: TextToolCallSpan): number {
  return left.start - right.start || right.end - left.end;
}

/** Text left after calls were cut out, remembering where each kept piece stood in the source. */
class KeptText {
  constructor(
    readonly text: string,
    /** Each kept piece: where it starts in `text`, and where in the source text. */
    private readonly pieces: readonly { readonly at: number; readonly source: number }[] = [
      { at: 0, source: 0 },
    ],
  ) {}

  /** Where `offset` of this text stood in the source: a binary search of the pieces. */
  sourceOffset(offset: number): number {
    let low = 0;
    let high = this.pieces.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.pieces[middle]?.at ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    const piece = this.pieces[low];
    return piece === undefined ? offset : piece.source + (offset - piece.at);
  }

  /** This text without `spans` (in order, not overlapping). */
  without(spans: readonly TextToolCallSpan[]): KeptText {
    let text = '';
    const pieces: { at: number; source: number }[] = [];
    let position = 0;
    for (const span of [...spans, { start: this.text.length, end: this.text.length }]) {
      if (span.start > position) {
        pieces.push({ at: text.length, source: this.sourceOffset(position) });
        text += this.text.slice(position, span.start);
      }
      position = span.end;
    }
    return new KeptText(text, pieces.length === 0 ? undefined : pieces);
  }
}
