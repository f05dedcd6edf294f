/**
 * Whether conversation/start warms the model (docs/decisions/2026-11-24-default-node-warm-up.md):
 * 1. a command set this container warmed within RECENT_WARM_UP_MS: no, whatever the node asked
 *    (the server still holds the prefix; a second warm-up costs a request and proves nothing);
 * 2. else yes, even when the node asked to skip: the real node's defaults skip and start before
 *    every utterance, so its first utterance of the day would pay the cold prompt inside a turn's
 *    deadline; a warm-up pays it within its own timeout and never fails the start;
 * 3. without a memory of warm-ups, what the node asked.
 */
import type { WarmUpMemory } from '../../ports/warm-up-memory';

/**
 * How long a warm-up counts as recent: Ollama unloads an idle model after 5 minutes (its default
 * `keep_alive`), and OpenAI keeps a cached prefix for 5 to 10 minutes of inactivity.
 */
export const RECENT_WARM_UP_MS = 5 * 60_000;

export type WarmUpDecision = 'warm' | 'skip_asked' | 'recently_warmed';

export function decideWarmUp(
  memory: WarmUpMemory | undefined,
  request: { readonly commandSetHash: string; readonly skipAsked: boolean; readonly nowMs: number },
): WarmUpDecision {
  if (memory === undefined) return request.skipAsked ? 'skip_asked' : 'warm';
  const last = memory.lastWarmedAt(request.commandSetHash);
  if (last !== null && request.nowMs - last < RECENT_WARM_UP_MS) return 'recently_warmed';
  return 'warm';
}
