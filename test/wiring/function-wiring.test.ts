import { describe, expect, it } from 'vitest';
import { apiFunctions } from '../../functions/http/contract/api-functions';
import type { ProxyHandler } from '../../functions/http/edge/dispatch-routes';
import { createTextToSpeech } from '../../functions/wiring/create-text-to-speech';
import {
  type FunctionWiring,
  functionDependencies,
  SpeechWiringMissingError,
} from '../../functions/wiring/function-wiring';
import { readProcessConfig } from '../../functions/wiring/process-config';
import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import type { SpeechToText, TextToSpeech } from '../../shared/ports/speech';

const create = (): ProxyHandler => () => Promise.reject(new Error('not called'));
const config = (env: Record<string, string>) => readProcessConfig({ TABLE_NAME: 't', ...env });
const unused: SpeechToText & TextToSpeech = {
  transcribe: () => Promise.reject(new Error('unused')),
  synthesize: () => Promise.reject(new Error('unused')),
};

/** A speech adapter that records the key it was built with. */
function recordingAdapter(keys: string[]) {
  return (_config: ServiceConfig, apiKey: string) => {
    keys.push(apiKey);
    return unused;
  };
}

describe('functionDependencies', () => {
  it.each([
    { fn: apiFunctions.speech, missing: 'speech in' },
    { fn: apiFunctions.voiceStream, missing: 'speech out' },
  ])(
    'refuses to wire $fn.name without the $missing adapter its entry needs',
    async ({ fn, missing }) => {
      // A wiring slip the types refuse; checked again when wired.
      const wiring = { function: fn, create } as FunctionWiring;

      const wired = functionDependencies(wiring, config({}));

      await expect(wired).rejects.toBeInstanceOf(SpeechWiringMissingError);
      await expect(wired).rejects.toMatchObject({ missing });
    },
  );

  it('refuses a function that hears given only speech out: it has no transcription adapter', async () => {
    // @ts-expect-error: the speech function's entry hears, so its wiring must pass speechIn.
    const wiring: FunctionWiring<typeof apiFunctions.speech> = {
      function: apiFunctions.speech,
      create,
      speechOut: createTextToSpeech,
    };

    await expect(functionDependencies(wiring, config({}))).rejects.toMatchObject({
      missing: 'speech in',
    });
  });

  it('gives the configured speech out and no speech in to a function that only speaks', async () => {
    const wiring = { function: apiFunctions.voiceStream, create, speechOut: createTextToSpeech };

    const { speech } = await functionDependencies(wiring, config({ TTS_PROVIDER: 'polly' }));

    expect(speech.speechToText).toBeNull();
    expect(speech.textToSpeech).not.toBeNull();
  });

  it('refuses, in its type, a speech adapter for a function whose entry needs none', () => {
    const wiring: FunctionWiring<typeof apiFunctions.chat> = {
      function: apiFunctions.chat,
      create,
      // @ts-expect-error: the chat function neither hears nor speaks; its bundle holds no adapter.
      speechOut: createTextToSpeech,
    };

    expect(wiring.function.speaks).toBe(false);
  });

  it('gives no speech and no model to a function that needs neither, whatever is configured', async () => {
    // Prepare
    const configured = config({
      STT_BASE_URL: 'http://127.0.0.1:1/v1',
      TTS_PROVIDER: 'polly',
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
      LLM_MODEL: 'm',
    });

    // Act
    const dependencies = await functionDependencies(
      { function: apiFunctions.nodeHelpers, create },
      configured,
    );

    // Assess
    expect(dependencies.speech).toEqual({ speechToText: null, textToSpeech: null });
    expect(dependencies.conversation.model).toBeNull();
  });

  it('wires the configured model for a function that calls it', async () => {
    const configured = config({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODEL: 'm' });

    const dependencies = await functionDependencies(
      { function: apiFunctions.chat, create },
      configured,
    );

    expect(dependencies.conversation.model).not.toBeNull();
  });

  it('builds each speech adapter with the key its settings name', async () => {
    // Prepare
    const heard: string[] = [];
    const spoken: string[] = [];
    const configured = config({
      STT_BASE_URL: 'http://127.0.0.1:1/v1',
      STT_API_KEY: 'sk-stt',
      TTS_PROVIDER: 'openai',
      TTS_BASE_URL: 'http://127.0.0.1:1/v1',
      TTS_API_KEY: 'sk-tts',
    });

    // Act
    const { speech } = await functionDependencies(
      {
        function: apiFunctions.speech,
        create,
        speechIn: recordingAdapter(heard),
        speechOut: recordingAdapter(spoken),
      },
      configured,
    );

    // Assess
    expect(heard).toEqual(['sk-stt']);
    expect(spoken).toEqual(['sk-tts']);
    expect(speech).toEqual({ speechToText: unused, textToSpeech: unused });
  });
});
