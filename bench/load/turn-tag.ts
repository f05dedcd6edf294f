/**
 * Every utterance of the load run carries a tag naming its conversation and its exchange, e.g.
 * `load-17-3`. The scripted model echoes it into the tool call, the driver into the tool result,
 * and the store check finds each turn, and any turn that crossed into another conversation, by it.
 */
export const turnTag = (conversation: number, exchange: number): string =>
  `load-${conversation}-${exchange}`;

const TAG = /\bload-\d+-\d+\b/;

/** The first tag in `text`, or null. */
export function findTurnTag(text: string): string | null {
  return TAG.exec(text)?.[0] ?? null;
}
