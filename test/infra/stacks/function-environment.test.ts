import { describe, expect, it } from 'vitest';
import { defaultDeploySettings } from '../../../infra/stacks/deploy-settings';
import {
  functionEnvironment,
  functionEnvironmentNames,
} from '../../../infra/stacks/function-environment';
import { turnTiming } from '../../../infra/stacks/turn-timing';
import { readServiceConfig } from '../../../shared/adapters/config/service-config';

/** The OpenAI path: one setting away from the default. */
const openAiSettings = {
  ...defaultDeploySettings,
  modelProvider: 'openai',
  openAiSecretName: 'prod/jcc/openai-key',
} as const;

/** What a function needs, as its entry in the function table says. */
const CALLS_MODEL = { callsModel: true, hears: false, speaks: false } as const;
const NEEDS_NOTHING = { callsModel: false, hears: false, speaks: false } as const;
const SPEAKS = { callsModel: false, hears: false, speaks: true } as const;
const HEARS = { callsModel: false, hears: true, speaks: false } as const;

describe('functionEnvironment', () => {
  const environment = functionEnvironment({
    tableName: 'jcc-table',
    settings: openAiSettings,
    needs: CALLS_MODEL,
  });

  it('declares every variable the handlers read, and no other', () => {
    // Prepare / Act / Assess
    expect(Object.keys(environment).sort()).toEqual([...functionEnvironmentNames].sort());
  });

  it.each([
    ['TABLE_NAME', 'jcc-table'],
    ['OPENAI_API_KEY_SECRET', 'prod/jcc/openai-key'],
    ['OPENAI_BASE_URL', defaultDeploySettings.openAiBaseUrl],
    ['LLM_MODEL', defaultDeploySettings.llmModel],
    ['MODEL_PROVIDER', 'openai'],
    ['BEDROCK_REGION', ''],
    ['DYNAMODB_ENDPOINT', ''],
    ['OPENAI_API_KEY', ''],
    ['TURN_DEADLINE_MS', '25000'],
    ['PARAM_NORMALIZATION', 'lossless'],
    ['MAX_VALIDATION_RETRIES', '2'],
    ['CONVERSATION_TTL_SECONDS', '86400'],
    ['POWERTOOLS_SERVICE_NAME', 'jcc'],
    ['POWERTOOLS_METRICS_NAMESPACE', 'Jcc'],
    ['POWERTOOLS_LOG_LEVEL', 'INFO'],
    ['NODE_OPTIONS', ''],
    ['MODEL_MAX_TOKENS', '1024'],
    ['STRICT_TOOL_SCHEMAS', 'false'],
    ['AUTH_REJECTION_FLOOR_MS', '25'],
    ['NODE_RATE_LIMIT', '120'],
    ['NODE_RATE_WINDOW_SECONDS', '60'],
    // Derived from the deadline by the handler, so a `sam local` deadline moves it too.
    ['WARMUP_TIMEOUT_MS', ''],
  ] as const)('sets %s to %j in AWS', (name, expected) => {
    // Prepare / Act / Assess
    expect(environment[name]).toBe(expected);
  });

  it('leaves out the region, which Lambda sets and refuses in an environment', () => {
    expect(Object.keys(environment)).not.toContain('AWS_REGION');
    expect(Object.keys(environment)).not.toContain('AWS_DEFAULT_REGION');
  });

  it.each([25_000, 8_000, 120_000])(
    'is read back by the handlers as the defaults with the stack settings (a %i ms turn)',
    (turnDeadlineMs) => {
      // Prepare
      const settings = { ...openAiSettings, turnDeadlineMs };

      // Act
      const config = readServiceConfig(
        functionEnvironment({ tableName: 'jcc-table', settings, needs: CALLS_MODEL }),
      );

      // Assess
      expect(config).toEqual(
        readServiceConfig({
          TABLE_NAME: 'jcc-table',
          TURN_DEADLINE_MS: String(turnDeadlineMs),
          MODEL_PROVIDER: 'openai',
          OPENAI_BASE_URL: settings.openAiBaseUrl,
          LLM_MODEL: settings.llmModel,
          OPENAI_API_KEY_SECRET: settings.openAiSecretName,
        }),
      );
    },
  );

  it.each([
    [null, 'us-east-1', 'the region Lambda gives the function'],
    ['eu-central-1', 'eu-central-1', 'bedrockRegion'],
  ])(
    "tells a function that calls Bedrock's model (bedrockRegion %j) its id and region, and no key",
    (bedrockRegion, region, _source) => {
      // Prepare
      const settings = { ...defaultDeploySettings, bedrockRegion };

      // Act
      const bedrock = functionEnvironment({ tableName: 't', settings, needs: CALLS_MODEL });
      const config = readServiceConfig(bedrock);

      // Assess
      expect(bedrock).toMatchObject({
        MODEL_PROVIDER: 'bedrock',
        LLM_MODEL: 'openai.gpt-oss-20b',
        OPENAI_BASE_URL: '',
        OPENAI_API_KEY_SECRET: '',
      });
      expect(config.languageModel).toMatchObject({
        model: 'openai.gpt-oss-20b',
        baseURL: `https://bedrock-mantle.${region}.api.aws/v1`,
        apiKey: { kind: 'value', value: '' },
        bedrock: { region },
      });
    },
  );

  it('tells a function that never calls the model nothing of the model, yet declares it all', () => {
    // Prepare
    const withoutModel = functionEnvironment({
      tableName: 'jcc-table',
      settings: defaultDeploySettings,
      needs: NEEDS_NOTHING,
    });

    // Act / Assess
    expect(Object.keys(withoutModel).sort()).toEqual([...functionEnvironmentNames].sort());
    expect(withoutModel).toMatchObject({
      MODEL_PROVIDER: '',
      BEDROCK_REGION: '',
      OPENAI_API_KEY_SECRET: '',
      OPENAI_BASE_URL: '',
      LLM_MODEL: '',
      OPENAI_API_KEY: '',
      TABLE_NAME: 'jcc-table',
    });
  });

  it('tells a function that speaks where its voice is, and nothing of speech in', () => {
    // Prepare
    const speaking = functionEnvironment({
      tableName: 'jcc-table',
      settings: defaultDeploySettings,
      needs: SPEAKS,
    });

    // Act
    const config = readServiceConfig(speaking);

    // Assess: Polly unless told otherwise, the default voice and engine.
    expect(speaking).toMatchObject({ TTS_PROVIDER: 'polly', POLLY_ENGINE: 'neural' });
    expect(config.textToSpeech).toEqual({ provider: 'polly', voice: 'Joanna', engine: 'neural' });
    expect(config.speechToText).toBeNull();
    expect(speaking).toMatchObject({ STT_BASE_URL: '', STT_API_KEY_SECRET: '' });
  });

  it('tells a function that hears the transcription server and its key’s secret only', () => {
    // Prepare
    const hearing = functionEnvironment({
      tableName: 'jcc-table',
      settings: {
        ...defaultDeploySettings,
        sttBaseUrl: 'https://api.openai.com/v1',
        sttApiKeySecretName: 'jcc/openai-api-key',
      },
      needs: HEARS,
    });

    // Act
    const config = readServiceConfig(hearing);

    // Assess
    expect(config.speechToText).toEqual({
      provider: 'openai',
      baseURL: 'https://api.openai.com/v1',
      model: 'whisper-1',
      apiKey: { kind: 'secret', secretId: 'jcc/openai-api-key' },
    });
    expect(config.textToSpeech).toBeNull();
    expect(hearing).toMatchObject({ TTS_PROVIDER: '', TTS_API_KEY_SECRET: '' });
  });

  it('passes an OpenAI-compatible speech server, its voice and its key’s secret to a speaker', () => {
    // Prepare
    const settings = {
      ...defaultDeploySettings,
      ttsProvider: 'openai',
      ttsBaseUrl: 'https://speech.example.com/v1',
      ttsVoice: 'nova',
      ttsApiKeySecretName: 'prod/jcc/tts',
    } as const;

    // Act
    const config = readServiceConfig(
      functionEnvironment({ tableName: 't', settings, needs: SPEAKS }),
    );

    // Assess
    expect(config.textToSpeech).toMatchObject({
      provider: 'openai',
      baseURL: 'https://speech.example.com/v1',
      voice: 'nova',
      model: 'tts-1',
      apiKey: { kind: 'secret', secretId: 'prod/jcc/tts' },
    });
  });

  it.each([
    [25_000, 29_000],
    [26_000, 29_000],
    [120_000, 180_000],
  ])(
    'ends a %i ms turn before both the function and API Gateway (%i ms) give up',
    (deadline, gateway) => {
      // Prepare
      const settings = {
        ...defaultDeploySettings,
        turnDeadlineMs: deadline,
        integrationTimeoutMs: gateway,
      };
      const timing = turnTiming(settings);
      const deadlineMs = Number(
        functionEnvironment({ tableName: 't', settings, needs: CALLS_MODEL }).TURN_DEADLINE_MS,
      );

      // Act / Assess
      expect(deadlineMs).toBe(deadline);
      expect(deadlineMs).toBeLessThan(timing.functionTimeout.toMilliseconds());
      expect(timing.functionTimeout.toMilliseconds()).toBeLessThanOrEqual(gateway);
    },
  );
});
