import { isJsonObject } from '../../params';
import type { ParsedArguments } from './extracted-reply';
import { parseToolArguments, withOuterRepairs } from './parse-tool-arguments';

/** A tool call found in a reply, before ids are checked and assigned. */
export interface ToolCallCandidate {
  readonly id: string | null;
  readonly name: string;
  readonly arguments: ParsedArguments;
}

/** A stretch of the reply text that holds tool calls and is removed from the text if taken. */
export interface TextToolCallSpan {
  readonly start: number;
  readonly end: number;
  readonly calls: readonly ToolCallCandidate[];
}

/** The first name a broken tool-call JSON gives itself, so the model can be asked again. */
const namePattern = /["'](?:tool_name|name)["']\s*:\s*["']([A-Za-z0-9_.-]{1,64})["']/;

/**
 * Reads parsed JSON as one tool call or a list of them, or null when it is not shaped like one.
 * Accepted shapes: `{name, arguments}`, `{name, parameters}` (Llama), `{tool_name, arguments}`
 * (with `server_name`, ignored), `{type: "function", function: {name, arguments}}` (OpenAI);
 * `arguments` may itself be a JSON string. `outerRepairs` were needed to read the call itself.
 */
export function readToolCallCandidates(
  value: unknown,
  outerRepairs: readonly string[],
): ToolCallCandidate[] | null {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return null;
  const candidates: ToolCallCandidate[] = [];
  for (const item of items) {
    const candidate = readToolCallCandidate(item, outerRepairs);
    if (candidate === null) return null;
    candidates.push(candidate);
  }
  return candidates;
}

/** A call whose JSON could not be read: named by the first `name` found, arguments unparseable. */
export function unparseableToolCall(body: string, reason: string): ToolCallCandidate | null {
  const name = namePattern.exec(body)?.[1];
  if (name === undefined) return null;
  return { id: null, name, arguments: { ok: false, raw: body, reason } };
}

/** The id a model gave, or null when it gave none worth keeping. */
export function modelGivenId(id: unknown): string | null {
  return typeof id === 'string' && id.trim() !== '' ? id : null;
}

function readToolCallCandidate(
  item: unknown,
  outerRepairs: readonly string[],
): ToolCallCandidate | null {
  if (!isJsonObject(item)) return null;
  const call =
    isJsonObject(item.function) && typeof item.function.name === 'string' ? item.function : item;
  const name = [call.name, call.tool_name].find((value) => typeof value === 'string');
  if (typeof name !== 'string') return null;
  const raw = 'arguments' in call ? call.arguments : call.parameters;
  return {
    id: modelGivenId(item.id),
    name,
    arguments: withOuterRepairs(parseToolArguments(raw), outerRepairs),
  };
}
