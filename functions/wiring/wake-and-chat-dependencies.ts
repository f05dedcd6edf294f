import type { Randomness } from '../../shared/ports/clock';

/** What the chat route tells a node about the model. */
export interface ChatModelSettings {
  /** LLM_MODEL, the `model` of a chat completion (empty when none is configured). */
  readonly modelName: string;
  /** MODEL_MAX_TOKENS, the most `max_tokens` a node may ask for; null when no model is configured. */
  readonly maxTokens: number | null;
}

/** What the wake-response and chat routes need beside the conversation's dependencies. */
export interface WakeAndChatDependencies {
  readonly chat: ChatModelSettings;
  /** Where the wake greetings' variety comes from. */
  readonly random: Randomness;
}
