import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import { embeddedRecognizer } from '../../shared/adapters/speech/embedded-recognizer-slot';
import { OpenAiSpeechToText } from '../../shared/adapters/speech/openai-speech-to-text';
import type { SpeechToText } from '../../shared/ports/speech';

/**
 * Speech in, for a function that hears (its entry passes this as `speechIn`): the STT_BASE_URL
 * server; without one, the recognizer `npm start` embeds (taken from its slot, never imported:
 * no Lambda bundle holds it), else none (the transcribe route's 503).
 */
export function createSpeechToText(config: ServiceConfig, apiKey: string): SpeechToText | null {
  const stt = config.speechToText;
  if (stt === null) return embeddedRecognizer();
  return new OpenAiSpeechToText({ baseURL: stt.baseURL, apiKey, model: stt.model });
}
