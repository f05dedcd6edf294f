import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import {
  EmbeddedSynthesizerMissingError,
  embeddedSynthesizer,
} from '../../shared/adapters/speech/embedded-synthesizer-slot';
import { OpenAiSpeechToText } from '../../shared/adapters/speech/openai-speech-to-text';
import { OpenAiTextToSpeech } from '../../shared/adapters/speech/openai-text-to-speech';
import { PollyTextToSpeech } from '../../shared/adapters/speech/polly-text-to-speech';
import type { TextToSpeech } from '../../shared/ports/speech';
import type { SpeechDependencies } from './service-dependencies';

/** What a function does with speech: its route-table entry's `hears` and `speaks`. */
export interface SpeechUses {
  readonly hears: boolean;
  readonly speaks: boolean;
}

/** The speech keys, resolved (from the environment or Secrets Manager); null where unused. */
export interface SpeechKeys {
  readonly speechToText: string | null;
  readonly textToSpeech: string | null;
}

/**
 * The speech adapters the settings configure, for a function that hears or speaks; null for
 * what is not configured or not used. The embedded synthesizer is never imported here: it
 * comes from the slot `npm start` fills, and without it `embedded` is refused.
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

function createTextToSpeech(config: ServiceConfig, apiKey: string): TextToSpeech | null {
  const tts = config.textToSpeech;
  if (tts === null) return null;
  switch (tts.provider) {
    case 'openai':
      return new OpenAiTextToSpeech({
        baseURL: tts.baseURL,
        apiKey,
        model: tts.model,
        voice: tts.voice,
        format: tts.format,
      });
    case 'polly':
      return new PollyTextToSpeech({ region: config.region, voice: tts.voice, engine: tts.engine });
    case 'embedded': {
      const factory = embeddedSynthesizer();
      if (factory === null) throw new EmbeddedSynthesizerMissingError();
      return factory(tts.voice);
    }
  }
}
