import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import { OpenAiTextToSpeech } from '../../shared/adapters/speech/openai-text-to-speech';
import { PollyTextToSpeech } from '../../shared/adapters/speech/polly-text-to-speech';
import type { TextToSpeech } from '../../shared/ports/speech';
import { EmbeddedSynthesizerMissingError, providedByNpmStart } from './npm-start-provisions';

/**
 * Speech out, for a function that speaks (its entry passes this as `speechOut`): the adapter the
 * settings configure; null when none is. The embedded synthesizer is
 * never imported here: `npm start` provides it (npm-start-provisions.ts), and without it `embedded` is
 * refused.
 */
export function createTextToSpeech(config: ServiceConfig, apiKey: string): TextToSpeech | null {
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
      const factory = providedByNpmStart('synthesizer');
      if (factory === null) throw new EmbeddedSynthesizerMissingError();
      return factory(tts.voice);
    }
  }
}
