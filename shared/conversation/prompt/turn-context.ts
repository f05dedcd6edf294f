import type { ChatMessage } from '../../chat/chat-message';
import type { RefinableCall } from '../refinement/refinable-call';
import { formatClockStamp, timeZoneOf } from '../time-zones';
import { describeRefinableCall, REFINABLE_CALL_LINE } from './describe-refinable-call';

/** What `withTurnContext` puts in front of an utterance. */
export interface TurnContextFacts {
  readonly timezone: string;
  /** Epoch milliseconds. */
  readonly now: number;
  /** The last call of this conversation that a follow-up could refine, if there is one. */
  readonly lastRefinableCall?: RefinableCall | null;
}

/**
 * The user's message with the context of this turn in front: local date, time, weekday and zone,
 * then the last refinable call when there is one. Kept out of the system prompt so that the
 * prompt stays byte-identical across turns.
 */
export function withTurnContext(utterance: string, context: TurnContextFacts): string {
  const zone = timeZoneOf(context.timezone);
  // Stored zones passed effectiveTimezone; for any other, luxon's text, so nothing changes.
  const stamp = (zone === null ? null : formatClockStamp(zone, context.now)) ?? 'Invalid DateTime';
  const lines = [`[${stamp}, time zone ${context.timezone}]`];
  const call = context.lastRefinableCall ?? null;
  if (call !== null) lines.push(describeRefinableCall(call));
  return `${lines.join('\n')}\n${utterance}`;
}

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
