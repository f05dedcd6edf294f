import type { ParsedArguments } from './extracted-reply';
import { forwardSearch } from './forward-search';
import { readLenientJson } from './lenient-json-reader';
import { parseJsonLenient } from './parse-json-lenient';
import { NOT_READ } from './reply-limits';
import {
  readToolCallCandidates,
  type TextToolCallSpan,
  type ToolCallCandidate,
  unparseableToolCall,
} from './tool-call-candidate';

const marker = '<|python_tag|>';
/** Llama 3.x ends a tool turn with `<|eom_id|>` (more to come) or `<|eot_id|>`. */
const endTokens = ['<|eom_id|>', '<|eot_id|>'] as const;
/** `brave_search.call(query="...")`: Llama 3.1's built-in tool form. Anchored: one pass. */
const builtInCall = /^([A-Za-z_][A-Za-z0-9_.-]{0,63})\.call\(([\s\S]*)\)\s*;?$/;
/** What a call is named when the text after the tag names nothing: code for Llama's ipython. */
const CODE_CALL = 'python';

/**
 * Finds Llama 3.x's `<|python_tag|>` calls anywhere in the text: JSON (`{"name", "parameters"}`),
 * or `name.call(key="value", ...)`. Whatever follows the tag up to the next tag or end token is a
 * call, never words for the user: one naming no declared tool is the validator's unknown-tool
 * retry. Bodies past the first `maxCalls` are not read.
 */
export function findPythonTagToolCalls(
  text: string,
  maxCalls = Number.POSITIVE_INFINITY,
): TextToolCallSpan[] {
  const findMarker = forwardSearch(text, marker);
  const findEnds = endTokens.map((token) => forwardSearch(text, token));
  const spans: TextToolCallSpan[] = [];
  for (let start = findMarker(0); start !== -1; ) {
    const bodyStart = start + marker.length;
    const stops = [findMarker(bodyStart), ...findEnds.map((find) => find(bodyStart))];
    const found = stops.filter((at) => at !== -1);
    const bodyEnd = found.length === 0 ? text.length : Math.min(...found);
    const endToken = endTokens.find((token) => text.startsWith(token, bodyEnd));
    const end = bodyEnd + (endToken?.length ?? 0);
    const calls =
      spans.length < maxCalls
        ? readPythonTagBody(text.slice(bodyStart, bodyEnd).trim())
        : [{ id: null, name: '', arguments: NOT_READ }];
    spans.push({ start, end, calls });
    start = findMarker(end);
  }
  return spans;
}

function readPythonTagBody(body: string): readonly ToolCallCandidate[] {
  if (body.startsWith('{') || body.startsWith('[')) {
    const parsed = parseJsonLenient(body);
    const calls = parsed.ok ? readToolCallCandidates(parsed.value, parsed.repaired) : null;
    if (calls !== null) return calls;
    const named = unparseableToolCall(
      body,
      parsed.ok ? 'not shaped as a tool call' : parsed.reason,
    );
    if (named !== null) return [named];
  }
  const builtIn = builtInCall.exec(body);
  if (builtIn !== null) {
    return [
      { id: null, name: builtIn[1] ?? '', arguments: readKeywordArguments(builtIn[2] ?? '') },
    ];
  }
  // Code for the interpreter: a call of a tool the node never declared, so the model hears which
  // tools exist (the code is its argument, never the user's words).
  return [
    { id: null, name: CODE_CALL, arguments: { ok: true, value: { code: body }, repaired: [] } },
  ];
}

/**
 * `query="x", limit=3` as arguments: the `=` of each top-level keyword becomes `:` and the whole
 * is read as lenient JSON (bare keys, single quotes, True/False/None are its repairs). One pass.
 */
function readKeywordArguments(text: string): ParsedArguments {
  let json = '';
  let quote: string | null = null;
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] ?? '';
    if (quote !== null) {
      if (character === '\\') {
        json += character + (text[index + 1] ?? '');
        index += 1;
        continue;
      }
      if (character === quote) quote = null;
    } else if (character === '"' || character === "'") {
      quote = character;
    } else if ('([{'.includes(character)) {
      depth += 1;
    } else if (')]}'.includes(character)) {
      depth -= 1;
    } else if (character === '=' && depth === 0) {
      json += ':';
      continue;
    }
    json += character;
  }
  const parsed = readLenientJson(`{${json}}`);
  return parsed.ok
    ? { ok: true, value: parsed.value, repaired: parsed.repaired }
    : { ok: false, raw: text, reason: parsed.reason };
}
