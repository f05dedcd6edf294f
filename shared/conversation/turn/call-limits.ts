import type { ToolCall } from '../../chat/chat-message';
import { TURN_LIMITS } from '../../params';
import { isServerToolName } from '../server-tools/server-tool-names';
import type { ExtractedToolCall } from '../tool-calls';
import { recordedArguments } from './recorded-arguments';

/** Calls that can wait on the node at once: as many results as one `continue` accepts. */
export const MAX_PENDING_CALLS = 32;
/** Calls read from one reply; the rest are not even recorded, so the next request stays small. */
export const MAX_CALLS_PER_REPLY = 32;
/** Server-tool calls run for one reply; each answer goes back to the model in the next request. */
export const MAX_SERVER_CALLS_PER_REPLY = 8;

/** A call the server answers with an error instead of running it or handing it to the node. */
export interface RefusedCall {
  readonly call: ToolCall;
  readonly reason: string;
}

/** One reply's calls within the limits: what to run, what to check, what to refuse. */
export interface BoundedCalls {
  readonly serverCalls: readonly ExtractedToolCall[];
  readonly clientCalls: readonly ExtractedToolCall[];
  readonly refused: readonly RefusedCall[];
  /** Calls past `MAX_CALLS_PER_REPLY` (`unread` ones included), dropped unread. */
  readonly dropped: number;
}

/**
 * Applies the per-reply limits, in the order the model wrote its calls: the first
 * `MAX_CALLS_PER_REPLY` are read, and of their server-tool calls the first
 * `MAX_SERVER_CALLS_PER_REPLY` run; the others are refused with a reason the model sees.
 */
export function boundReplyCalls(toolCalls: readonly ExtractedToolCall[], unread = 0): BoundedCalls {
  const read = toolCalls.slice(0, MAX_CALLS_PER_REPLY);
  const server = read.filter((call) => isServerToolName(call.name));
  const refused = server.slice(MAX_SERVER_CALLS_PER_REPLY).map((call) => ({
    call: { id: call.id, name: call.name, arguments: argumentsText(call) },
    reason: `not run: at most ${MAX_SERVER_CALLS_PER_REPLY} server-tool calls are run per reply`,
  }));
  return {
    serverCalls: server.slice(0, MAX_SERVER_CALLS_PER_REPLY),
    clientCalls: read.filter((call) => !isServerToolName(call.name)),
    refused,
    dropped: unread + toolCalls.length - read.length,
  };
}

/**
 * The valid node calls that fit beside `pending` (at most `MAX_PENDING_CALLS` in all), and the
 * rest refused: a node could never answer more in one `continue`.
 */
export function fitPending(
  pending: readonly ToolCall[],
  valid: readonly ToolCall[],
): { readonly kept: readonly ToolCall[]; readonly refused: readonly RefusedCall[] } {
  const room = Math.max(MAX_PENDING_CALLS - pending.length, 0);
  return {
    kept: [...pending, ...valid.slice(0, room)],
    refused: valid.slice(room).map((call) => ({
      call,
      reason: `not executed: at most ${MAX_PENDING_CALLS} calls can go to the node at once`,
    })),
  };
}

/** What the model is told when calls were refused or dropped, or null when none were. */
export function limitNote(refused: readonly RefusedCall[], dropped: number): string | null {
  if (refused.length === 0 && dropped === 0) return null;
  const parts = [
    dropped > 0 ? `${dropped} tool call(s) past the first ${MAX_CALLS_PER_REPLY} were ignored` : '',
    refused.length > 0 ? `${refused.length} call(s) were refused (see their results)` : '',
  ].filter((part) => part !== '');
  return `${parts.join('; ')}. Make fewer calls: only those the request needs.`;
}

function argumentsText(call: ExtractedToolCall): string {
  return recordedArguments(call.arguments.ok ? call.arguments.value : call.arguments.raw);
}

/**
 * The node calls this turn still checks: in order, while their arguments (characters of compact
 * JSON: the cost model's work is per character or node, each at least one) stay within
 * TURN_LIMITS.argumentBytes with what the turn checked before (`checked`).
 * The rest are refused unread: validation of one turn is bounded by the bytes times the command
 * set's proven cost per byte (stepsPerByte), however many calls and retries the model sends.
 */
export function fitArgumentBudget(
  checked: number,
  calls: readonly ExtractedToolCall[],
): {
  readonly read: readonly ExtractedToolCall[];
  readonly refused: readonly RefusedCall[];
  readonly bytes: number;
} {
  let bytes = checked;
  const read: ExtractedToolCall[] = [];
  const refused: RefusedCall[] = [];
  for (const call of calls) {
    const size = argumentsBytes(call);
    if (bytes + size <= TURN_LIMITS.argumentBytes) {
      bytes += size;
      read.push(call);
    } else {
      refused.push({
        call: { id: call.id, name: call.name, arguments: '{}' },
        reason: `not read: the calls of this request passed ${TURN_LIMITS.argumentBytes} bytes of arguments`,
      });
    }
  }
  return { read, refused, bytes };
}

function argumentsBytes(call: ExtractedToolCall): number {
  if (!call.arguments.ok) return call.arguments.raw.length;
  try {
    return (JSON.stringify(call.arguments.value) ?? '').length;
  } catch {
    return Number.POSITIVE_INFINITY; // nested past what JSON.stringify's stack can write
  }
}
