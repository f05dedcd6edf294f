import { parseJsonLenient } from './parse-json-lenient';
import { NOT_READ } from './reply-limits';
import { readToolCallCandidates, type TextToolCallSpan } from './tool-call-candidate';

const fence = '```';
/** Only JSON (or unlabelled) blocks: a python block naming a tool is code, not a call. */
const callLanguages: ReadonlySet<string> = new Set(['json', '']);

/**
 * Finds fenced code blocks holding a tool call or a list of them as JSON. An unclosed fence runs to
 * the end of the text. A block that is not a call is left alone (it is text for the user). JSON
 * blocks past the first `maxCalls` calls are not read: each is one call dropped unread.
 */
export function findFencedToolCalls(
  text: string,
  maxCalls = Number.POSITIVE_INFINITY,
): TextToolCallSpan[] {
  const spans: TextToolCallSpan[] = [];
  for (let start = text.indexOf(fence); start !== -1; ) {
    const lineEnd = text.indexOf('\n', start + fence.length);
    if (lineEnd === -1) return spans;
    const language = text
      .slice(start + fence.length, lineEnd)
      .trim()
      .toLowerCase();
    const closeAt = text.indexOf(fence, lineEnd + 1);
    const bodyEnd = closeAt === -1 ? text.length : closeAt;
    const end = closeAt === -1 ? text.length : closeAt + fence.length;
    if (callLanguages.has(language) && spans.length >= maxCalls) {
      spans.push({ start, end, calls: [{ id: null, name: '', arguments: NOT_READ }] });
    } else if (callLanguages.has(language)) {
      const parsed = parseJsonLenient(text.slice(lineEnd + 1, bodyEnd));
      const calls = parsed.ok ? readToolCallCandidates(parsed.value, parsed.repaired) : null;
      if (calls !== null) spans.push({ start, end, calls });
    }
    start = text.indexOf(fence, end);
  }
  return spans;
}
