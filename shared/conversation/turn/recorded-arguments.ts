/** Longest arguments text the history keeps for a call the server answered itself. */
export const MAX_RECORDED_ARGUMENTS_CHARACTERS = 2_000;

/**
 * The arguments of a call the server answers itself (a server tool, an invalid or refused call)
 * as they go into the history: JSON text, cut short, never a throw. What the model wrote is
 * bounded only by its output, and a bloated history would make the node's next request too large
 * to store; `JSON.stringify` recurses, so arguments nested 100,000 deep, which `JSON.parse`
 * reads, would overflow the stack.
 */
export function recordedArguments(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  } catch {
    return '{}';
  }
  return text.length <= MAX_RECORDED_ARGUMENTS_CHARACTERS
    ? text
    : JSON.stringify({ cut: text.slice(0, MAX_RECORDED_ARGUMENTS_CHARACTERS) });
}
