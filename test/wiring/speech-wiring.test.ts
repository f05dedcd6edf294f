import { describe, expect, it } from 'vitest';
import { apiFunctions } from '../../functions/http/contract/api-functions';
import { createSpeechOutDependencies } from '../../functions/wiring/create-text-to-speech';
import { productionDependencies } from '../../functions/wiring/production-dependencies';
import { SpeechWiringMissingError } from '../../functions/wiring/speech-wiring';
import { readServiceConfig } from '../../shared/adapters/config/service-config';

describe('productionDependencies', () => {
  it.each([apiFunctions.speech, apiFunctions.voiceStream])(
    'refuses to wire $name without its speech adapters',
    async (fn) => {
      await expect(productionDependencies(fn)).rejects.toBeInstanceOf(SpeechWiringMissingError);
    },
  );
});

describe('createSpeechOutDependencies', () => {
  const config = readServiceConfig({ TABLE_NAME: 't', TTS_PROVIDER: 'polly' });
  const keys = { speechToText: null, textToSpeech: null };

  it('refuses a function that hears: it has no transcription adapter to give', () => {
    expect(() => createSpeechOutDependencies(config, keys, { hears: true, speaks: true })).toThrow(
      SpeechWiringMissingError,
    );
  });

  it('gives the configured speech out and no speech in', () => {
    const speech = createSpeechOutDependencies(config, keys, { hears: false, speaks: true });

    expect(speech.speechToText).toBeNull();
    expect(speech.textToSpeech).not.toBeNull();
  });
});
