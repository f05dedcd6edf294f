import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import { OpenAiSpeechToText } from '../../shared/adapters/speech/openai-speech-to-text';
import { TranscribeSpeechToText } from '../../shared/adapters/speech/transcribe-speech-to-text';
import type { SpeechToText } from '../../shared/ports/speech';
import { SPEECH_LIMITS } from '../http/contract/speech-limits';
import { providedByNpmStart } from './npm-start-provisions';

/**
 * Speech in, for a function that hears (its entry passes this as `speechIn`): Amazon Transcribe,
 * or the STT_BASE_URL server; without either, the recognizer `npm start` embeds (as it provides
 * it, never imported: no Lambda bundle holds it), else none (the transcribe route's 503).
 */
export function createSpeechToText(config: ServiceConfig, apiKey: string): SpeechToText | null {
  const stt = config.speechToText;
  if (stt === null) return providedByNpmStart('recognizer');
  // voice/command's utterance limit: the node sends the text on.
  const maxCharacters = SPEECH_LIMITS.transcriptCharacters;
  if (stt.provider === 'transcribe') {
    return new TranscribeSpeechToText({
      region: stt.region,
      languageCode: stt.languageCode,
      maxCharacters,
      ...(stt.endpoint === null ? {} : { endpoint: stt.endpoint }),
    });
  }
  return new OpenAiSpeechToText({ baseURL: stt.baseURL, apiKey, model: stt.model, maxCharacters });
}
