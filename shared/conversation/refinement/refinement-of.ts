import type { ToolCall } from '../../chat/chat-message';
import { canonicalJson } from '../../params';
import { argumentsObject, type RefinableCall } from './refinable-call';

/** A node call that refines the last refinable call: the same command, called again. */
export interface Refinement {
  readonly command: string;
  /** The new call, as the node gets it in this response. */
  readonly toolCallId: string;
  /** The call it refines, from an earlier turn. */
  readonly refinesToolCallId: string;
  /** Parameters whose value differs from the refined call's, including ones added or left out. */
  readonly changed: readonly string[];
}

/**
 * The refinement among `toolCalls` (the node calls a follow-up utterance ended with): the first
 * call of `previous`'s command, compared with it argument by argument. Null when there was no
 * refinable call before, or the model called something else. Only observed, never acted on: the
 * call's arguments are exactly what the model sent and the validation passed.
 */
export function refinementOf(
  previous: RefinableCall | null,
  toolCalls: readonly ToolCall[],
): Refinement | null {
  if (previous === null) return null;
  const call = toolCalls.find((candidate) => candidate.name === previous.name);
  if (call === undefined) return null;
  const refined = argumentsObject(call.arguments);
  if (refined === null) return null;
  const names = new Set([...Object.keys(refined), ...Object.keys(previous.arguments)]);
  const changed = [...names].filter((name) => !sameValue(refined[name], previous.arguments[name]));
  return {
    command: call.name,
    toolCallId: call.id,
    refinesToolCallId: previous.id,
    changed,
  };
}

function sameValue(left: unknown, right: unknown): boolean {
  if (left === undefined || right === undefined) return left === right;
  return canonicalJson(left) === canonicalJson(right);
}
