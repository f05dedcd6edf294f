/**
 * How fast a local model server works: the figures issue 11 measured on the team's 2-core VM with
 * a model of exactly Qwen3-0.6B's shape (28 layers, width 1024) behind node-llama-cpp's CPU build.
 */
export interface LatencyProfile {
  readonly name: string;
  /** Prompt processing (prefill), in the model's tokens per second. */
  readonly promptTokensPerSecond: number;
  /** Generation (decode), in the model's tokens per second. */
  readonly generationTokensPerSecond: number;
  /**
   * The model's tokens per o200k token for the same text: we count with o200k (the tokenizer we
   * can install), the speeds are in the model's own tokens. Qwen3's BPE splits this prompt
   * (English and JSON) finer: issue 11 measured ~3,900 tokens for a first request that o200k
   * counts as ~3,400 with the chat template (the prompt was then 650 characters shorter).
   */
  readonly tokensPerO200kToken: number;
}

const QWEN3_TOKENS_PER_O200K_TOKEN = 1.15;

export const LOCAL_MODEL_PROFILES = {
  q4_0: {
    name: 'Q4_0',
    promptTokensPerSecond: 220,
    generationTokensPerSecond: 19,
    tokensPerO200kToken: QWEN3_TOKENS_PER_O200K_TOKEN,
  },
  q8_0: {
    name: 'Q8_0',
    promptTokensPerSecond: 117,
    generationTokensPerSecond: 10.5,
    tokensPerO200kToken: QWEN3_TOKENS_PER_O200K_TOKEN,
  },
} as const satisfies Record<string, LatencyProfile>;
