import { parseJsonLenient } from './parse-json-lenient';
import { readToolCallCandidates, type TextToolCallSpan } from './tool-call-candidate';

/** Markers some chat templates put before a bare JSON call (Llama 3.x, Mistral). */
const callMarkers = ['<|python_tag|>', '[TOOL_CALLS]'] as const;

/**
 * Finds a reply that is nothing but a JSON tool call (or a list of them), optionally after a
 * template marker: how Llama and Mistral models call tools when the server does not parse it.
 * JSON in the middle of prose is not taken.
 */
export function findWholeTextToolCalls(text: string): TextToolCallSpan[] {
  const start = text.search(/\S/);
  if (start === -1) return [];
  const marker = callMarkers.find((candidate) => text.startsWith(candidate, start));
  const body = text.slice(start + (marker?.length ?? 0)).trim();
  if (!body.startsWith('{') && !body.startsWith('[')) return [];
  const parsed = parseJsonLenient(body);
  const calls = parsed.ok ? readToolCallCandidates(parsed.value, parsed.repaired) : null;
  return calls === null ? [] : [{ start, end: text.length, calls }];
}
