import { afterEach, describe, expect, it } from 'vitest';
import { createSpeechToText } from '../../functions/wiring/create-speech-to-text';
import { createTextToSpeech } from '../../functions/wiring/create-text-to-speech';
import {
  EmbeddedSynthesizerMissingError,
  provideToHandlers,
} from '../../functions/wiring/npm-start-provisions';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import { OpenAiTextToSpeech } from '../../shared/adapters/speech/openai-text-to-speech';
import { PollyTextToSpeech } from '../../shared/adapters/speech/polly-text-to-speech';
import type { TextToSpeech } from '../../shared/ports/speech';
import { tonePcm, wavFile } from '../support/speech-audio';
import { useScriptedAudioServer } from '../support/use-scripted-audio-server';

const audio = useScriptedAudioServer();
const config = (env: Record<string, string>) => readServiceConfig({ TABLE_NAME: 't', ...env });

afterEach(() => provideToHandlers('synthesizer', null));

describe('the speech adapters', () => {
  it('give nothing when no speech is configured', () => {
    expect(createSpeechToText(config({}), '')).toBeNull();
    expect(createTextToSpeech(config({}), '')).toBeNull();
  });
});

describe('createSpeechToText', () => {
  it('transcribes through the configured server with the resolved key', async () => {
    // Prepare
    audio.enqueueTranscription({ text: 'lights on' });
    const configured = config({ STT_BASE_URL: audio.baseURL, STT_MODEL: 'whisper-large-v3' });
    const format = { sampleRate: 16_000, channels: 1, sampleWidth: 2 };
    const speechToText = createSpeechToText(configured, 'sk-resolved');

    // Act
    const transcript = await speechToText?.transcribe(
      { wav: wavFile(tonePcm(0.1, 16_000), format), format, durationSeconds: 0.1 },
      { timeoutMs: 10_000 },
    );

    // Assess
    expect(transcript).toEqual({ text: 'lights on' });
    expect(audio.requests[0]?.headers.authorization).toBe('Bearer sk-resolved');
    expect(audio.requests[0]?.transcription?.model).toBe('whisper-large-v3');
  });
});

describe('createTextToSpeech', () => {
  it.each([
    [{ TTS_PROVIDER: 'polly' }, PollyTextToSpeech],
    [{ TTS_PROVIDER: 'openai', TTS_BASE_URL: 'http://127.0.0.1:1/v1' }, OpenAiTextToSpeech],
  ])('speaks with %j', (env, adapter) => {
    expect(createTextToSpeech(config(env), '')).toBeInstanceOf(adapter);
  });

  it('refuses embedded speech where npm start has not provided the synthesizer', () => {
    expect(() => createTextToSpeech(config({ TTS_PROVIDER: 'embedded' }), '')).toThrow(
      EmbeddedSynthesizerMissingError,
    );
  });

  it('builds the synthesizer npm start provides, with the configured voice', () => {
    const voices: string[] = [];
    const synthesizer: TextToSpeech = { synthesize: () => Promise.reject(new Error('unused')) };
    provideToHandlers('synthesizer', (voice) => {
      voices.push(voice);
      return synthesizer;
    });

    const textToSpeech = createTextToSpeech(
      config({ TTS_PROVIDER: 'embedded', TTS_VOICE: 'kal16' }),
      '',
    );

    expect(textToSpeech).toBe(synthesizer);
    expect(voices).toEqual(['kal16']);
  });
});
