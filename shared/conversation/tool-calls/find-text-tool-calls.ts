import { findFencedToolCalls } from './fenced-tool-calls';
import { findFunctionTagToolCalls } from './function-tag-tool-calls';
import { findPythonTagToolCalls } from './python-tag-tool-calls';
import { findTaggedToolCalls } from './tagged-tool-calls';
import type { TextToolCallSpan, ToolCallCandidate } from './tool-call-candidate';
import { findWholeTextToolCalls } from './whole-text-tool-calls';

/**
 * Finds the tool calls a model wrote into its text and removes their markup from it. Every
 * stretch in a tool-call form counts, whatever tool it names: a call of an undeclared tool is the
 * validator's to report (an unknown-tool retry), and its markup must never be spoken to the user.
 * JSON inside prose, or JSON not shaped as a call, stays text. Overlapping finds (a
 * `<function=...>` inside a `<tool_call>`) go to the one that starts first. Each form reads the
 * bodies of its first `maxCalls` calls only (the rest are dropped unread), so the scan is linear in
 * the text however many calls it holds.
 */
export function findTextToolCalls(
  text: string,
  maxCalls = Number.POSITIVE_INFINITY,
): {
  readonly text: string;
  readonly calls: readonly ToolCallCandidate[];
} {
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
  let remaining = '';
  let position = 0;
  const calls: ToolCallCandidate[] = [];
  for (const span of spans) {
    if (span.start < position) continue;
    remaining += text.slice(position, span.start);
    calls.push(...span.calls);
    position = span.end;
  }
  return { text: remaining + text.slice(position), calls };
}

function byStartThenLongest(left: TextToolCallSpan, right: TextToolCallSpan): number {
  return left.start - right.start || right.end - left.end;
}
