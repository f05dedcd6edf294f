import type { IdGenerator } from '../../ports/clock';
import type { ModelReply, RawToolCall } from '../../ports/language-model';
import { assignToolCallIds } from './assign-tool-call-ids';
import type { ExtractedReply } from './extracted-reply';
import { findTextToolCalls } from './find-text-tool-calls';
import { parseToolArguments } from './parse-tool-arguments';
import { NOT_READ } from './reply-limits';
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
 * Only the first `maxCalls` calls have their arguments read (the turn drops the rest unread), and
 * arguments over REPLY_LIMITS.argumentsBytes are not parsed; the text's own size is the turn's to
 * bound before this runs.
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
  const candidates = native
    ? reply.toolCalls.map((call, index) => readNativeToolCall(call, index < maxCalls))
    : found.calls;
  const text = found.text.trim();
  return {
    text: text === '' ? null : text,
    toolCalls: assignToolCallIds(candidates, native ? 'native' : 'text', ids, usedIds),
  };
}

function readNativeToolCall(call: RawToolCall, read: boolean): ToolCallCandidate {
  return {
    id: modelGivenId(call.id),
    name: call.name,
    arguments: read ? parseToolArguments(call.arguments) : NOT_READ,
  };
}
