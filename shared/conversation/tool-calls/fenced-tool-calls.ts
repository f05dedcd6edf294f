import { parseJsonLenient } from './parse-json-lenient';
import { readToolCallCandidates, type TextToolCallSpan } from './tool-call-candidate';

const fence = '```';
/** Only JSON (or unlabelled) blocks: a python block naming a tool is code, not a call. */
const callLanguages: ReadonlySet<string> = new Set(['json', '']);

/**
 * Finds fenced code blocks holding a tool call or a list of them as JSON. An unclosed fence runs to
 * the end of the text. A block that is not a call is left alone (it is text for the user).
 */
export function findFencedToolCalls(text: string): TextToolCallSpan[] {
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
    if (callLanguages.has(language)) {
      const parsed = parseJsonLenient(text.slice(lineEnd + 1, bodyEnd));
      const calls = parsed.ok ? readToolCallCandidates(parsed.value, parsed.repaired) : null;
      if (calls !== null) spans.push({ start, end, calls });
    }
    start = text.indexOf(fence, end);
  }
  return spans;
}
