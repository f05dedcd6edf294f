import type { ChatMessage, ToolCall } from '../../chat/chat-message';
import { newestExchangeBytes, resultShareBytes } from '../history/conversation-budget';
import { utf8Length } from '../history/utf8-length';
import type { RefusedCall } from './call-limits';
import type { TurnContext } from './turn-state';

const EMPTY_RESULT_BYTES = utf8Length(
  JSON.stringify({ role: 'tool', toolCallId: '', content: '' }),
);
const NO_ROOM_REASON =
  'not executed: the conversation has no room left for its result; finish with the calls ' +
  'already made, or answer the user';
/** Longest arguments text kept for a refused call; longer ones are replaced by their size. */
const REFUSED_ARGUMENTS_CHARACTERS = 256;

/** The arguments recorded for a call that never ran: short ones as sent, else their size. */
export function refusedArguments(text: string): string {
  return text.length <= REFUSED_ARGUMENTS_CHARACTERS
    ? text
    : JSON.stringify({ not_recorded: `${text.length} characters` });
}

/**
 * The calls, in order, whose results still fit in the exchange: the history of the turn, the
 * assistant message that hands them out, and one result of its full share (resultShareBytes,
 * what `continue` cuts each to) per call must stay within `context.exchangeRoomBytes`, the size
 * `continue` accepts before asking the model. The rest are refused before the node sees them,
 * so a `continue` whose results are within their share is never a 413 (hostile row 5). The
 * record of each refused call (`step` writes it: short arguments, the reason) is counted too.
 */
export function fitResultRoom(
  messages: readonly ChatMessage[],
  text: string | null,
  calls: readonly ToolCall[],
  context: TurnContext,
): { readonly kept: readonly ToolCall[]; readonly refused: readonly RefusedCall[] } {
  const room = context.exchangeRoomBytes;
  if (room === undefined || calls.length === 0) return { kept: calls, refused: [] };
  const handing: ChatMessage = { role: 'assistant', content: text, toolCalls: [] };
  const exchange = newestExchangeBytes(messages);
  const wrapper = utf8Length(JSON.stringify(handing));
  const callBytes = calls.map((call) => utf8Length(JSON.stringify(call)) + 1);
  const resultBytes = calls.map((call) => EMPTY_RESULT_BYTES + utf8Length(call.id) + 1);
  const recordBytes = calls.map((call, index) => refusalBytes(call) + (resultBytes[index] ?? 0));
  let fits = 0;
  for (let count = calls.length; count > 0 && fits === 0; count -= 1) {
    const share = resultShareBytes(context.settings, count);
    // The refused calls' records go in one more assistant message, with their tool messages.
    let total = exchange + wrapper * (count < calls.length ? 2 : 1);
    for (let index = 0; index < calls.length; index += 1) {
      total +=
        index < count
          ? (callBytes[index] ?? 0) + (resultBytes[index] ?? 0) + share
          : (recordBytes[index] ?? 0);
    }
    if (total <= room) fits = count;
  }
  return {
    kept: calls.slice(0, fits),
    refused: calls.slice(fits).map((call) => ({
      call,
      reason: NO_ROOM_REASON,
    })),
  };
}

/** What the record of one refused call adds: its entry in an assistant message and its error. */
function refusalBytes(call: ToolCall): number {
  const entry = { ...call, arguments: refusedArguments(call.arguments) };
  return (
    utf8Length(JSON.stringify(entry)) + 1 + utf8Length(JSON.stringify({ error: NO_ROOM_REASON }))
  );
}
