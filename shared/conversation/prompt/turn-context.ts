import { DateTime } from 'luxon';

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
