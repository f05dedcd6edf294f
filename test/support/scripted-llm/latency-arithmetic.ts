import type { LatencyProfile, PromptPoint } from './latency-profile';

/** What one request costs the model server, in the model's tokens and modeled milliseconds. */
export interface RequestWork {
  readonly promptTokens: number;
  /** Prompt tokens found in the prefix cache: not processed again. */
  readonly cachedTokens: number;
  readonly uncachedTokens: number;
  readonly generatedTokens: number;
  /** True when `max_tokens` stopped the reply before its end (`finish_reason: "length"`). */
  readonly cutOff: boolean;
  readonly promptMs: number;
  readonly generationMs: number;
  readonly workMs: number;
}

export interface RequestSize {
  readonly promptTokens: number;
  readonly cachedTokens: number;
  /** The whole scripted reply, as the model would generate it (end-of-turn token included). */
  readonly replyTokens: number;
  /** The request's `max_tokens`, if it carried one. */
  readonly maxTokens?: number | undefined;
}

/**
 * The work of one request: the uncached suffix of the prompt at prefill speed (promptMs), then the
 * reply (or `max_tokens` of it) at generation speed. A fully cached prompt still evaluates its last
 * token, as llama.cpp does to get the first token's logits.
 */
export function requestWork(profile: LatencyProfile, size: RequestSize): RequestWork {
  const promptTokens = Math.max(1, size.promptTokens);
  const uncachedTokens = Math.max(1, promptTokens - Math.max(0, size.cachedTokens));
  const limit = size.maxTokens ?? Number.POSITIVE_INFINITY;
  const generatedTokens = Math.max(0, Math.min(size.replyTokens, limit));
  const promptMs = promptEvaluationMs(profile.promptPoints, uncachedTokens);
  const generationMs = (generatedTokens / profile.generationTokensPerSecond) * 1000;
  return {
    promptTokens,
    cachedTokens: promptTokens - uncachedTokens,
    uncachedTokens,
    generatedTokens,
    cutOff: generatedTokens < size.replyTokens,
    promptMs,
    generationMs,
    workMs: promptMs + generationMs,
  };
}

/** When a request runs on a single-slot server: after the one before it, in arrival order. */
export interface SlotTimes {
  readonly startMs: number;
  readonly finishMs: number;
  /** Time spent queued behind earlier requests (abandoned ones included). */
  readonly waitMs: number;
}

export function scheduleOnSlot(slotFreeAtMs: number, arrivalMs: number, workMs: number): SlotTimes {
  const startMs = Math.max(slotFreeAtMs, arrivalMs);
  return { startMs, finishMs: startMs + workMs, waitMs: startMs - arrivalMs };
}

/**
 * Milliseconds to evaluate `tokens` uncached prompt tokens: linear between the measured points
 * around it, past the last at the last segment's rate, below the first on the line from 0.
 */
export function promptEvaluationMs(points: readonly PromptPoint[], tokens: number): number {
  const line: PromptPoint[] = [{ tokens: 0, ms: 0 }, ...points.filter((p) => p.tokens > 0)];
  for (let index = 1; index < line.length; index += 1) {
    const low = line[index - 1] as PromptPoint;
    const high = line[index] as PromptPoint;
    if (tokens <= high.tokens || index === line.length - 1) {
      return low.ms + ((tokens - low.tokens) * (high.ms - low.ms)) / (high.tokens - low.tokens);
    }
  }
  throw new Error('a latency profile needs at least one prompt point above 0 tokens');
}
