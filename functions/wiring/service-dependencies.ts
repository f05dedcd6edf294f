import type { ConversationDependencies } from '../../shared/conversation';
import type { Randomness } from '../../shared/ports/clock';
import type { SpeechToText, TextToSpeech } from '../../shared/ports/speech';
import type { RouteDependencies } from '../http/edge/create-route';

/**
 * Speech in and speech out of a function. Null when not configured (no STT_BASE_URL; no
 * TTS_PROVIDER) or when the function's route-table entry does not say it `hears` / `speaks`:
 * a route then answers 503 naming the settings of `speechNotConfigured`
 * (functions/http/errors/speech-not-configured-error.ts).
 */
export interface SpeechDependencies {
  readonly speechToText: SpeechToText | null;
  readonly textToSpeech: TextToSpeech | null;
}

/** What the chat route tells a node about the model. */
interface ChatModelSettings {
  /** LLM_MODEL, the `model` of a chat completion (empty when none is configured). */
  readonly modelName: string;
  /** MODEL_MAX_TOKENS, the most `max_tokens` a node may ask for; null when no model is configured. */
  readonly maxTokens: number | null;
}

/** Everything a handler factory needs; production, the local server and the tests build one each. */
export interface ServiceDependencies {
  readonly conversation: ConversationDependencies;
  readonly route: RouteDependencies;
  readonly speech: SpeechDependencies;
  /** What the chat route needs beside the conversation's dependencies. */
  readonly chat: ChatModelSettings;
  /** Where the wake greetings' variety comes from. */
  readonly random: Randomness;
}
