import type { ChatMessage, ToolCall } from '../../chat/chat-message';
import type { CompiledCommandSet } from '../../params';
import { argumentsObject, type RefinableCall, refinableParameterNames } from './refinable-call';

/**
 * The last call in `messages` of a command with refinable parameters that the node executed and
 * answered, with its arguments as the node got them; null when there is none.
 *
 * A call counts once the model has seen its result: its tool messages are followed by the model's
 * next reply. That leaves out what the node never ran: calls the server answered itself within a
 * turn (invalid, or over a limit: the retry note, a system message, follows), calls closed
 * unexecuted because the user moved on (the next user message follows), and calls still pending.
 */
export function lastRefinableCall(
  messages: readonly ChatMessage[],
  commandSet: CompiledCommandSet,
): RefinableCall | null {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'assistant' || message.toolCalls.length === 0) continue;
    const answered = answeredIds(messages, index);
    if (answered === null) continue;
    for (const call of [...message.toolCalls].reverse()) {
      if (!answered.has(call.id)) continue;
      const found = asRefinableCall(call, commandSet);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * The ids the tool messages right after `messages[index]` answer, when the model replied to them
 * (an assistant message follows); null otherwise.
 */
function answeredIds(messages: readonly ChatMessage[], index: number): ReadonlySet<string> | null {
  const ids = new Set<string>();
  // By index, not a slice: a copy of the rest of the history for each earlier assistant message
  // made the walk quadratic in the history's length.
  for (let next = index + 1; next < messages.length; next += 1) {
    const message = messages[next] as ChatMessage;
    if (message.role !== 'tool') return message.role === 'assistant' ? ids : null;
    ids.add(message.toolCallId);
  }
  return null;
}

function asRefinableCall(call: ToolCall, commandSet: CompiledCommandSet): RefinableCall | null {
  const command = commandSet.commands.get(call.name);
  if (command === undefined) return null;
  const refinableParameters = refinableParameterNames(command);
  if (refinableParameters.length === 0) return null;
  const args = argumentsObject(call.arguments);
  if (args === null) return null;
  return { id: call.id, name: call.name, arguments: args, refinableParameters };
}
