import type { ChatMessage } from '../../chat/chat-message';
import { oneLine } from '../home/quoted-text';
import type { RefinableCall } from '../refinement/refinable-call';
import { formatClockStamp, timeZoneOf } from '../time-zones';

/** What `withTurnContext` puts in front of an utterance. */
export interface TurnContextFacts {
  readonly timezone: string;
  /** Epoch milliseconds. */
  readonly now: number;
  /** The last call of this conversation that a follow-up could refine, if there is one. */
  readonly lastRefinableCall?: RefinableCall | null;
  /** The node's room from the registry: where the user is. */
  readonly room?: string | null;
  /** The speaker the node recognized: an opaque id, nothing more is known of the person. */
  readonly speakerUserId?: number | null;
}

/**
 * The user's message with the context of this turn in front: local date, time, weekday and zone,
 * the node's room and the speaker when known, then the last refinable call when there is one.
 * Kept out of the system prompt so that the prompt stays byte-identical across turns.
 */
export function withTurnContext(utterance: string, context: TurnContextFacts): string {
  const zone = timeZoneOf(context.timezone);
  // Stored zones passed effectiveTimezone; for any other, luxon's text, so nothing changes.
  const stamp = (zone === null ? null : formatClockStamp(zone, context.now)) ?? 'Invalid DateTime';
  const lines = [`[${stamp}, time zone ${context.timezone}${whereAndWho(context)}]`];
  const call = context.lastRefinableCall ?? null;
  if (call !== null) lines.push(describeRefinableCall(call));
  return `${lines.join('\n')}\n${utterance}`;
}

/**
 * `, the user is in: "Office", speaker: user 7`, or the parts known. The room is quoted on one
 * line without brackets, so it can neither end the context line nor start another.
 */
function whereAndWho(context: TurnContextFacts): string {
  const room = oneLine((context.room ?? '').replace(/[[\]]/g, ' '), ROOM_CHARACTERS);
  const speaker = context.speakerUserId ?? null;
  return (
    (room === '' ? '' : `, the user is in: ${JSON.stringify(room)}`) +
    (speaker === null ? '' : `, speaker: user ${speaker}`)
  );
}

const ROOM_CHARACTERS = 64;

const REFINABLE_LINE_START = '[Last call with refinable parameters: ';

/**
 * The turn-context line naming the last refinable call, as one line whatever its arguments hold:
 * `[Last call with refinable parameters: music({"action":"play"}); refinable: volume_level. ...]`.
 */
function describeRefinableCall(call: RefinableCall): string {
  const shown = `${call.name}(${JSON.stringify(call.arguments)})`;
  return `${REFINABLE_LINE_START}${shown}; refinable: ${call.refinableParameters.join(', ')}. \
If this request adjusts it, call ${call.name} again with these arguments, changing only what the \
user changed.]`;
}

/** Matches the line `describeRefinableCall` writes, with its newline, at the start of a text. */
const REFINABLE_CALL_LINE = /^\[Last call with refinable parameters: [^\n]*\]\n/;

/** The context line `withTurnContext` puts in front: `[<stamp>, time zone <zone>]`. */
const TURN_CONTEXT_LINE = /^\[[^\]\n]*, time zone [^\]\n]*\]\n/;

/**
 * The utterance that opened the latest turn of `messages`: its last user message without the
 * context lines. The history bound always keeps the newest exchange whole, so a turn being
 * continued still has it; '' for a history with no user message.
 */
export function latestUtterance(messages: readonly ChatMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const afterStamp = message.content.replace(TURN_CONTEXT_LINE, '');
    // Only a message that had the stamp line can have the refinable-call line after it.
    return afterStamp === message.content
      ? afterStamp
      : afterStamp.replace(REFINABLE_CALL_LINE, '');
  }
  return '';
}
