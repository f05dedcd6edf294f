import type { ConversationDependencies } from '../../shared/conversation';
import type { SpeechToText, TextToSpeech } from '../../shared/ports/speech';
import type { RouteDependencies } from '../http/edge/create-route';
import type { WakeAndChatDependencies } from './wake-and-chat-dependencies';

/**
 * Speech in and speech out of a function. Null when not configured (no STT_BASE_URL; no
 * TTS_PROVIDER) or when the function's route-table entry does not say it `hears` / `speaks`:
 * a route then answers 503 naming the settings of `speechNotConfigured`
 * (shared/adapters/speech/speech-not-configured.ts).
 */
export interface SpeechDependencies {
  readonly speechToText: SpeechToText | null;
  readonly textToSpeech: TextToSpeech | null;
}

/** Everything a handler factory needs; production, the local server and the tests build one each. */
export interface ServiceDependencies extends WakeAndChatDependencies {
  readonly conversation: ConversationDependencies;
  readonly route: RouteDependencies;
  readonly speech: SpeechDependencies;
}
