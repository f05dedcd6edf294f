import { forwardSearch } from './forward-search';
import { findFunctionTagToolCalls } from './function-tag-tool-calls';
import { parseJsonLenient } from './parse-json-lenient';
import { NOT_READ } from './reply-limits';
import {
  readToolCallCandidates,
  type TextToolCallSpan,
  type ToolCallCandidate,
  unparseableToolCall,
} from './tool-call-candidate';

/**
 * Finds `<tool_call>{"name": ..., "arguments": ...}</tool_call>` (Hermes, Qwen) or
 * `<tool>{"server_name": ..., "tool_name": ..., "arguments": ...}</tool>` blocks. A missing closing
 * tag ends the body at the next opening tag or the end of the text (replies get cut off). A body
 * that is not JSON but names a tool is returned with unparseable arguments, so the model is asked
 * again rather than its call shown to the user. Bodies past the first `maxCalls` are not read:
 * each is one call dropped unread, and its markup is removed all the same.
 */
export function findTaggedToolCalls(
  text: string,
  tag: 'tool_call' | 'tool',
  maxCalls = Number.POSITIVE_INFINITY,
): TextToolCallSpan[] {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const findOpen = forwardSearch(text, open);
  const findClose = forwardSearch(text, close);
  const spans: TextToolCallSpan[] = [];
  for (let start = findOpen(0); start !== -1; ) {
    const bodyStart = start + open.length;
    const closeAt = findClose(bodyStart);
    const nextOpen = findOpen(bodyStart);
    const closed = closeAt !== -1 && (nextOpen === -1 || closeAt < nextOpen);
    const bodyEnd = closed ? closeAt : nextOpen === -1 ? text.length : nextOpen;
    const end = closed ? closeAt + close.length : bodyEnd;
    const calls =
      spans.length < maxCalls
        ? readTaggedBody(text.slice(bodyStart, bodyEnd).trim(), maxCalls)
        : [{ id: null, name: '', arguments: NOT_READ }];
    if (calls !== null) spans.push({ start, end, calls });
    start = findOpen(end);
  }
  return spans;
}

function readTaggedBody(body: string, maxCalls: number): readonly ToolCallCandidate[] | null {
  // Qwen3-Coder wraps its `<function=...>` form in `<tool_call>` too.
  if (body.startsWith('<function=')) {
    const calls = findFunctionTagToolCalls(body, maxCalls).flatMap((span) => span.calls);
    return calls.length === 0 ? null : calls;
  }
  const parsed = parseJsonLenient(body);
  if (parsed.ok) return readToolCallCandidates(parsed.value, parsed.repaired);
  const call = unparseableToolCall(body, parsed.reason);
  return call === null ? null : [call];
}
