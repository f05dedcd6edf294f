import type { ConversationDependencies } from '../../shared/conversation';
import type { Randomness } from '../../shared/ports/clock';
import type { RouteDependencies } from '../http/create-route';

/** Everything a handler factory needs; production, the local server and the tests build one each. */
export interface ServiceDependencies {
  readonly conversation: ConversationDependencies;
  readonly route: RouteDependencies;
  /** What the chat route tells a node about the model: its name and its `max_tokens` setting. */
  readonly chat: ChatModelSettings;
  /** Where the wake greetings' variety comes from. */
  readonly random: Randomness;
}

export interface ChatModelSettings {
  /** LLM_MODEL, the `model` of a chat completion (empty when none is configured). */
  readonly modelName: string;
  /** MODEL_MAX_TOKENS: the most `max_tokens` a node may ask for. */
  readonly maxTokens: number;
}
