/**
 * How fast a local model server works: the figures issue 21 measured (2026-11) on a 2-core VM with
 * a model of exactly Qwen3-0.6B's shape (28 layers, width 1024; its real tokenizer and chat
 * template) behind node-llama-cpp 3.22.1's CPU build, thinking off, medians of 3 at a load under 1.
 */
export interface LatencyProfile {
  readonly name: string;
  /**
   * Prompt processing (prefill): measured evaluations of `tokens` uncached prompt tokens, in
   * ascending order; the time of other counts is interpolated between them, and extrapolated past
   * the last at the last segment's rate. One point at 0 makes the speed constant.
   */
  readonly promptPoints: readonly PromptPoint[];
  /** Generation (decode), in the model's tokens per second (Qwen3's tokens: `qwen3-chat.ts`). */
  readonly generationTokensPerSecond: number;
}

/** `tokens` uncached prompt tokens evaluated in `ms`. */
export interface PromptPoint {
  readonly tokens: number;
  readonly ms: number;
}

/** When and where the figures below were measured: the bench prints it beside them. */
export const MEASURED = '2026-11, issue 21 (Qwen3-0.6B shape, node-llama-cpp 3.22.1, 2 CPU cores)';

/** At a 2.7k context, both quantizations: 15–16 tokens/s. */
const GENERATION_TOKENS_PER_SECOND = 15.5;

/** The first request's prompt, in Qwen3 tokens: what a cold prompt costs, measured. */
const FIRST_REQUEST_TOKENS = 2_747;

/**
 * Points both quantizations share. One token costs a generation step. A warm request's uncached
 * suffix (46 tokens: 2,701 of the first command's 2,747 came from the cache) ran at 40–45
 * tokens/s, small batches over a 2.7k context, not at the cold prompt's speed.
 */
const ONE_TOKEN: PromptPoint = { tokens: 1, ms: 1_000 / GENERATION_TOKENS_PER_SECOND };
const WARM_SUFFIX: PromptPoint = { tokens: 46, ms: (46 / 42.5) * 1_000 };

export const LOCAL_MODEL_PROFILES = {
  q4_0: {
    name: 'Q4_0',
    // conversation/start with its warm-up (the whole prompt, one token out) took 14.0 s: ~196 tokens/s.
    promptPoints: [ONE_TOKEN, WARM_SUFFIX, { tokens: FIRST_REQUEST_TOKENS, ms: 14_000 }],
    generationTokensPerSecond: GENERATION_TOKENS_PER_SECOND,
  },
  q8_0: {
    name: 'Q8_0',
    // ~148 tokens/s cold (its warm-up start took 18.6 s).
    promptPoints: [
      ONE_TOKEN,
      WARM_SUFFIX,
      { tokens: FIRST_REQUEST_TOKENS, ms: (FIRST_REQUEST_TOKENS / 148) * 1_000 },
    ],
    generationTokensPerSecond: GENERATION_TOKENS_PER_SECOND,
  },
} as const satisfies Record<string, LatencyProfile>;
