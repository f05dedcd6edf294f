import type { IdGenerator } from '../../ports/clock';
import type { ModelReply, RawToolCall } from '../../ports/language-model';
import { assignToolCallIds } from './assign-tool-call-ids';
import type { ExtractedReply } from './extracted-reply';
import { findTextToolCalls } from './find-text-tool-calls';
import { parseToolArguments } from './parse-tool-arguments';
import { stripThinkBlocks } from './strip-think-blocks';
import { modelGivenId, type ToolCallCandidate } from './tool-call-candidate';

/**
 * Takes the tool calls and the user-facing text out of a model reply.
 *
 * 1. Strip `<think>` reasoning from the text.
 * 2. Native `tool_calls` win: all are returned (an undeclared name is the validator's to report);
 *    the text is not searched for more calls, though tool-call markup is still removed from it so
 *    it never reaches the user.
 * 3. Without native calls, calls written into the text are taken, whatever tools they name.
 * 4. Arguments are parsed leniently; ids are kept, or assigned from `ids` when missing, unusable,
 *    repeated, or among the `usedIds` of earlier calls.
 * Only the first `maxCalls` calls are read and returned; the rest are counted (`unread`) and
 * dropped by the turn. Arguments over REPLY_LIMITS.argumentsBytes are not parsed; the text's own
 * size is the turn's to bound before this runs.
 */
export function extractReply(
  reply: ModelReply,
  ids: IdGenerator,
  usedIds: ReadonlySet<string> = new Set(),
  maxCalls = Number.POSITIVE_INFINITY,
): ExtractedReply {
  const visible = reply.content === null ? '' : stripThinkBlocks(reply.content);
  const found = findTextToolCalls(visible, maxCalls);
  const native = reply.toolCalls.length > 0;
  const read = native
    ? reply.toolCalls.slice(0, maxCalls).map(readNativeToolCall)
    : found.calls.slice(0, maxCalls);
  const text = found.text.trim();
  return {
    text: text === '' ? null : text,
    toolCalls: assignToolCallIds(read, native ? 'native' : 'text', ids, usedIds),
    unread: (native ? reply.toolCalls.length : found.calls.length) - read.length,
  };
}

function readNativeToolCall(call: RawToolCall): ToolCallCandidate {
  return {
    id: modelGivenId(call.id),
    name: call.name,
    arguments: parseToolArguments(call.arguments),
  };
}
