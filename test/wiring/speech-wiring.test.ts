import { describe, expect, it } from 'vitest';
import { apiFunctions } from '../../functions/http/api-functions';
import {
  productionDependencies,
  SpeechWiringMissingError,
} from '../../functions/wiring/production-dependencies';

describe('productionDependencies', () => {
  it.each([apiFunctions.speech, apiFunctions.voiceStream])(
    'refuses to wire $name without its speech adapters',
    async (fn) => {
      await expect(productionDependencies(fn)).rejects.toBeInstanceOf(SpeechWiringMissingError);
    },
  );
});
