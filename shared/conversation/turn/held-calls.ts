import type { ToolCall } from '../../chat/chat-message';
import type { TurnState } from './turn-state';

/** Every tool-call id the history and the held calls already use: a new call must not repeat one. */
export function usedCallIds(state: TurnState): ReadonlySet<string> {
  const used = new Set(state.keptCalls.map((call) => call.id));
  for (const message of state.messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls) used.add(call.id);
    if (message.role === 'tool') used.add(message.toolCallId);
  }
  return used;
}

/** New calls that repeat a held one (same tool, same arguments) on a retry are handed over once. */
export function withoutRepeats(held: readonly ToolCall[], calls: readonly ToolCall[]): ToolCall[] {
  const seen = new Set<string>(held.map((call) => `${call.name}\u0000${call.arguments}`));
  return calls.filter((call) => {
    const key = `${call.name}\u0000${call.arguments}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
