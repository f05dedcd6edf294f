import { describe, expect, it } from 'vitest';
import { defaultDeploySettings } from '../../../infra/stacks/deploy-settings';
import { functionEnvironment } from '../../../infra/stacks/function-environment';
import { ConfigError, readServiceConfig } from '../../../shared/adapters/config/service-config';

const BASE = { TABLE_NAME: 'jcc-table' };

const problemsOf = (env: Record<string, string>): readonly string[] => {
  try {
    readServiceConfig({ ...BASE, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('speech in settings', () => {
  it('configures no speech in when STT_BASE_URL is unset', () => {
    expect(readServiceConfig(BASE).speechToText).toBeNull();
  });

  it('reads the server, the default model and a key from the environment', () => {
    const config = readServiceConfig({
      ...BASE,
      STT_BASE_URL: 'http://localhost:8000/v1',
      STT_API_KEY: 'stt-key',
    });
    expect(config.speechToText).toEqual({
      provider: 'openai',
      baseURL: 'http://localhost:8000/v1',
      model: 'whisper-1',
      apiKey: { kind: 'value', value: 'stt-key' },
    });
  });

  it.each([
    [{ STT_API_KEY_SECRET: 'jcc/stt' }, { kind: 'secret', secretId: 'jcc/stt' }],
    [
      { STT_API_KEY: 'k', STT_API_KEY_SECRET: 'jcc/stt' },
      { kind: 'value', value: 'k' },
    ],
    [{}, { kind: 'value', value: 'not-needed' }],
  ])('takes the key from %j as %j', (env, apiKey) => {
    const config = readServiceConfig({
      ...BASE,
      STT_BASE_URL: 'https://api.groq.com/openai/v1',
      ...env,
    });
    expect(config.speechToText).toMatchObject({ provider: 'openai', apiKey });
  });

  it('refuses a server that is not an http(s) URL, without quoting it', () => {
    expect(problemsOf({ STT_BASE_URL: 'ftp://user:pw@host' })).toEqual([
      'STT_BASE_URL must be an http(s) URL',
    ]);
  });

  it.each([
    [
      { STT_PROVIDER: 'transcribe', AWS_REGION: 'eu-west-2' },
      { provider: 'transcribe', region: 'eu-west-2', languageCode: 'en-US', endpoint: null },
    ],
    [
      {
        STT_PROVIDER: 'Transcribe',
        STT_BASE_URL: 'https://api.openai.com/v1',
        TRANSCRIBE_LANGUAGE: 'de-CH',
        TRANSCRIBE_REGION: 'eu-central-1',
        TRANSCRIBE_ENDPOINT: 'http://127.0.0.1:4000',
      },
      {
        provider: 'transcribe',
        region: 'eu-central-1',
        languageCode: 'de-CH',
        endpoint: 'http://127.0.0.1:4000',
      },
    ],
  ])(
    'STT_PROVIDER=transcribe with %j: Transcribe, no key, STT_BASE_URL ignored',
    (env, expected) => {
      expect(readServiceConfig({ ...BASE, ...env }).speechToText).toEqual(expected);
    },
  );

  it.each(['english', 'en_US', 'EN-us', ''])('refuses TRANSCRIBE_LANGUAGE %j', (language) => {
    const problems = problemsOf({ STT_PROVIDER: 'transcribe', TRANSCRIBE_LANGUAGE: language });
    // Empty is unset: the default.
    expect(problems).toEqual(
      language === ''
        ? []
        : [`TRANSCRIBE_LANGUAGE must be a language code such as en-US, got "${language}"`],
    );
  });
});

describe('speech out settings', () => {
  it.each([{}, { TTS_PROVIDER: 'none' }, { TTS_PROVIDER: 'None', TTS_VOICE: 'slt' }])(
    'configures no speech out with %j',
    (env) => {
      expect(readServiceConfig({ ...BASE, ...env }).textToSpeech).toBeNull();
    },
  );

  it.each([
    ['polly', {}, { provider: 'polly', voice: 'Joanna', engine: 'neural' }],
    [
      'polly',
      { TTS_VOICE: 'Matthew', POLLY_ENGINE: 'Generative' },
      { provider: 'polly', voice: 'Matthew', engine: 'generative' },
    ],
    ['embedded', {}, { provider: 'embedded', voice: 'slt' }],
    ['embedded', { TTS_VOICE: 'kal16' }, { provider: 'embedded', voice: 'kal16' }],
    [
      'openai',
      { TTS_BASE_URL: 'http://127.0.0.1:8880/v1' },
      {
        provider: 'openai',
        baseURL: 'http://127.0.0.1:8880/v1',
        model: 'tts-1',
        voice: 'alloy',
        format: { kind: 'pcm', sampleRate: 24_000 },
        apiKey: { kind: 'value', value: 'not-needed' },
      },
    ],
    [
      'openai',
      {
        TTS_BASE_URL: 'https://api.openai.com/v1',
        TTS_MODEL: 'gpt-4o-mini-tts',
        TTS_VOICE: 'nova',
        TTS_RESPONSE_FORMAT: 'wav',
        TTS_API_KEY_SECRET: 'jcc/tts',
      },
      {
        provider: 'openai',
        baseURL: 'https://api.openai.com/v1',
        model: 'gpt-4o-mini-tts',
        voice: 'nova',
        format: { kind: 'wav' },
        apiKey: { kind: 'secret', secretId: 'jcc/tts' },
      },
    ],
    [
      'OpenAI',
      { TTS_BASE_URL: 'http://h/v1', TTS_PCM_SAMPLE_RATE: '22050' },
      expect.objectContaining({ provider: 'openai', format: { kind: 'pcm', sampleRate: 22_050 } }),
    ],
  ])('TTS_PROVIDER=%s with %j', (provider, env, expected) => {
    expect(readServiceConfig({ ...BASE, TTS_PROVIDER: provider, ...env }).textToSpeech).toEqual(
      expected,
    );
  });

  it.each([
    [
      { TTS_PROVIDER: 'espeak' },
      ['TTS_PROVIDER must be one of polly, openai, embedded, none, got "espeak"'],
    ],
    [{ TTS_PROVIDER: 'openai' }, ['TTS_BASE_URL is required when TTS_PROVIDER is openai']],
    [
      { TTS_PROVIDER: 'embedded', TTS_VOICE: 'Joanna' },
      [
        'TTS_VOICE must be one of slt, kal16, kal, awb, rms when TTS_PROVIDER is embedded, got "Joanna"',
      ],
    ],
    [
      { TTS_PROVIDER: 'polly', POLLY_ENGINE: 'turbo' },
      ['POLLY_ENGINE must be one of neural, standard, generative, long-form, got "turbo"'],
    ],
    [
      { TTS_PROVIDER: 'openai', TTS_BASE_URL: 'http://h/v1', TTS_PCM_SAMPLE_RATE: '44' },
      ['TTS_PCM_SAMPLE_RATE must be an integer from 8000 to 48000, got "44"'],
    ],
    [
      { TTS_PROVIDER: 'openai', TTS_BASE_URL: 'http://h/v1', TTS_RESPONSE_FORMAT: 'mp3' },
      ['TTS_RESPONSE_FORMAT must be one of pcm, wav, got "mp3"'],
    ],
  ])('stops start-up on %j with one line each', (env, problems) => {
    expect(problemsOf(env)).toEqual(problems);
  });

  it('never quotes a key in a problem', () => {
    const problems = problemsOf({
      TTS_PROVIDER: 'openai',
      TTS_API_KEY: 'sk-secret-tts',
      STT_API_KEY: 'sk-secret-stt',
      STT_BASE_URL: 'nope',
    });
    expect(problems.join(' ')).not.toMatch(/sk-secret/);
    expect(problems).toHaveLength(2);
  });

  it('accepts the environment the stack gives every function: each setting at its default', () => {
    const env = functionEnvironment({
      tableName: 'jcc-table',
      settings: defaultDeploySettings,
      needs: { callsModel: true, hears: false, speaks: false },
    });
    const config = readServiceConfig({ ...env, TTS_PROVIDER: 'polly' });
    expect(config.speechToText).toBeNull();
    expect(config.textToSpeech).toEqual({ provider: 'polly', voice: 'Joanna', engine: 'neural' });
  });
});
