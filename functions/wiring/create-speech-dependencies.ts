import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import { OpenAiSpeechToText } from '../../shared/adapters/speech/openai-speech-to-text';
import { createTextToSpeech } from './create-text-to-speech';
import type { SpeechDependencies } from './service-dependencies';
import type { SpeechKeys, SpeechUses } from './speech-wiring';

export type { SpeechKeys, SpeechUses } from './speech-wiring';

/**
 * The speech adapters the settings configure, for a function that hears or speaks; null for
 * what is not configured or not used (speech out: create-text-to-speech.ts).
 */
export function createSpeechDependencies(
  config: ServiceConfig,
  keys: SpeechKeys,
  uses: SpeechUses,
): SpeechDependencies {
  const stt = uses.hears ? config.speechToText : null;
  return {
    speechToText:
      stt === null
        ? null
        : new OpenAiSpeechToText({
            baseURL: stt.baseURL,
            apiKey: keys.speechToText ?? '',
            model: stt.model,
          }),
    textToSpeech: uses.speaks ? createTextToSpeech(config, keys.textToSpeech ?? '') : null,
  };
}
