import { DateTime } from 'luxon';
import type { ChatMessage } from '../chat-message';

/**
 * The user's message with the context of this turn in front: local date, time, weekday and zone.
 * Kept out of the system prompt so that the prompt stays byte-identical across turns.
 */
export function withTurnContext(
  utterance: string,
  context: { timezone: string; now: number },
): string {
  const local = DateTime.fromMillis(context.now, { zone: context.timezone });
  const stamp = local.toFormat("cccc yyyy-MM-dd HH:mm 'UTC'ZZ");
  return `[${stamp}, time zone ${context.timezone}]\n${utterance}`;
}

/** The context line `withTurnContext` puts in front: `[<stamp>, time zone <zone>]`. */
const TURN_CONTEXT_LINE = /^\[[^\]\n]*, time zone [^\]\n]*\]\n/;

/**
 * The utterance that opened the latest turn of `messages`: its last user message without the
 * context line. The history bound always keeps the newest exchange whole, so a turn being
 * continued still has it; '' for a history with no user message.
 */
export function latestUtterance(messages: readonly ChatMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'user') return message.content.replace(TURN_CONTEXT_LINE, '');
  }
  return '';
}
