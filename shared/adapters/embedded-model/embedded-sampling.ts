/** How the embedded model picks each token (LLM_TEMPERATURE, MODEL_THINKING). */
export interface Sampling {
  readonly temperature: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly minP?: number;
}

/** Qwen3's model card: its sampling in thinking mode, where it warns against greedy decoding. */
const THINKING_SAMPLING = { temperature: 0.6, topP: 0.95, topK: 20, minP: 0 } as const;
/** And without thinking, for a temperature above 0. */
const NON_THINKING_SAMPLING = { topP: 0.8, topK: 20, minP: 0 } as const;

/**
 * The sampling of LLM_TEMPERATURE. Unset: greedy with thinking off (the likeliest token each
 * time: the same words give the same call, and no sampler work per token), Qwen3's thinking-mode
 * sampling with it on. 0 is greedy; above 0, that temperature with Qwen3's top-p and top-k.
 */
export function samplingFor(temperature: number | null, thinking: 'off' | 'on' = 'off'): Sampling {
  if (temperature === null) return thinking === 'on' ? THINKING_SAMPLING : { temperature: 0 };
  if (temperature <= 0) return { temperature: 0 };
  const mode = thinking === 'on' ? THINKING_SAMPLING : NON_THINKING_SAMPLING;
  return { ...mode, temperature };
}
