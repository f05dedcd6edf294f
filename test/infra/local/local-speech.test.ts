import { describe, expect, it } from 'vitest';
import { defaultLocalSpeechOut, describeLocalSpeech } from '../../../infra/local/local-speech';
import { readServiceConfig } from '../../../shared/adapters/config/service-config';

describe('npm start speech', () => {
  it.each([
    [{}, 'embedded'],
    [{ TTS_PROVIDER: ' ' }, 'embedded'],
    [{ TTS_PROVIDER: 'polly' }, 'polly'],
    [{ TTS_PROVIDER: 'none' }, 'none'],
  ])('speaks out of the box: %j gives TTS_PROVIDER=%s', (env, provider) => {
    const copy: NodeJS.ProcessEnv = { ...env };

    defaultLocalSpeechOut(copy);

    expect(copy.TTS_PROVIDER).toBe(provider);
  });

  it('describes both ways in words, without a credential of a URL', () => {
    const config = readServiceConfig({
      TABLE_NAME: 't',
      STT_BASE_URL: 'http://user:hunter2@127.0.0.1:8000/v1?key=abc',
      TTS_PROVIDER: 'openai',
      TTS_BASE_URL: 'https://api.openai.com/v1',
      TTS_VOICE: 'nova',
    });

    const speech = describeLocalSpeech(config);

    expect(speech).toEqual({
      speaks: 'tts-1, voice nova, at https://api.openai.com/v1',
      hears: 'whisper-1 at http://127.0.0.1:8000/v1',
    });
  });

  it.each([
    [{ TTS_PROVIDER: 'embedded', TTS_VOICE: 'kal16' }, 'embedded Flite, voice kal16'],
    [{ TTS_PROVIDER: 'polly' }, 'Amazon Polly, voice Joanna (neural)'],
    [{ TTS_PROVIDER: 'none' }, null],
  ])('says what speaks with %j', (env, speaks) => {
    expect(describeLocalSpeech(readServiceConfig({ TABLE_NAME: 't', ...env })).speaks).toBe(speaks);
  });
});
