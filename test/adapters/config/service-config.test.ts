import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, readServiceConfig } from '../../../shared/adapters/config/service-config';
import { handlerSettingNames } from '../../../shared/adapters/config/settings-table';

const BASE = { TABLE_NAME: 'jcc-table' };

describe('readServiceConfig', () => {
  it('gives the documented defaults, and no model when none is configured', () => {
    const config = readServiceConfig(BASE);
    expect(config).toMatchObject({
      tableName: 'jcc-table',
      region: 'us-east-1',
      dynamoDbEndpoint: null,
      languageModel: null,
      serviceName: 'jcc',
      metricsNamespace: 'Jcc',
      engine: {
        normalization: 'lossless',
        maxValidationRetries: 2,
        turnDeadlineMs: 25_000,
        conversationTtlSeconds: 86_400,
      },
    });
  });

  it.each([
    ['the default deadline', {}, 20_000],
    ['a short deadline: 2 s of it left to answer', { TURN_DEADLINE_MS: '8000' }, 6_000],
    ['a long local deadline', { TURN_DEADLINE_MS: '300000' }, 20_000],
    ['an explicit one', { WARMUP_TIMEOUT_MS: '0' }, 0],
  ])('waits for the model warm-up within a turn: %s', (_case, env, expected) => {
    expect(readServiceConfig({ ...BASE, ...env }).engine.warmUpTimeoutMs).toBe(expected);
  });

  it.each([
    [{}, true],
    [{ ANSWER_FROM_COMMAND_MESSAGES: 'on' }, true],
    [{ ANSWER_FROM_COMMAND_MESSAGES: 'OFF' }, false],
  ])("answers from the commands' messages with %j: %s", (env, expected) => {
    expect(readServiceConfig({ ...BASE, ...env }).engine.answerFromCommandMessages).toBe(expected);
  });

  it('refuses a warm-up longer than a turn, naming both settings', () => {
    expect(() =>
      readServiceConfig({ ...BASE, TURN_DEADLINE_MS: '5000', WARMUP_TIMEOUT_MS: '5000' }),
    ).toThrow(/WARMUP_TIMEOUT_MS \(5000\) must be below TURN_DEADLINE_MS \(5000\)/);
  });

  it('reads every setting the handlers document', () => {
    const config = readServiceConfig({
      ...BASE,
      AWS_REGION: 'eu-west-1',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      LLM_MODEL: 'qwen2.5:7b',
      OPENAI_API_KEY: 'sk-local',
      PARAM_NORMALIZATION: 'STRICT',
      MAX_VALIDATION_RETRIES: '0',
      TURN_DEADLINE_MS: '5000',
      CONVERSATION_TTL_SECONDS: '600',
      POWERTOOLS_SERVICE_NAME: 'voice',
      POWERTOOLS_METRICS_NAMESPACE: 'Voice',
    });
    expect(config).toMatchObject({
      region: 'eu-west-1',
      dynamoDbEndpoint: 'http://127.0.0.1:8000',
      languageModel: {
        baseURL: 'http://localhost:11434/v1',
        model: 'qwen2.5:7b',
        apiKey: { kind: 'value', value: 'sk-local' },
      },
      engine: {
        normalization: 'strict',
        maxValidationRetries: 0,
        turnDeadlineMs: 5_000,
        conversationTtlSeconds: 600,
      },
      serviceName: 'voice',
      metricsNamespace: 'Voice',
    });
  });

  it.each([
    [{ OPENAI_API_KEY_SECRET: 'jcc/openai' }, { kind: 'secret', secretId: 'jcc/openai' }],
    [
      { OPENAI_API_KEY: 'sk-x', OPENAI_API_KEY_SECRET: 'jcc/openai' },
      { kind: 'value', value: 'sk-x' },
    ],
    [{}, { kind: 'value', value: 'not-needed' }],
  ])('takes the model key from %j', (key, expected) => {
    const config = readServiceConfig({
      ...BASE,
      OPENAI_BASE_URL: 'https://api.example/v1',
      LLM_MODEL: 'm',
      ...key,
    });
    expect(config.languageModel?.apiKey).toEqual(expected);
  });

  it('reports every problem at once, and never a secret', () => {
    const read = () =>
      readServiceConfig({
        OPENAI_BASE_URL: 'ftp://example',
        OPENAI_API_KEY: 'sk-must-not-leak',
        PARAM_NORMALIZATION: 'sloppy',
        MAX_VALIDATION_RETRIES: '-1',
        TURN_DEADLINE_MS: '900000',
        CONVERSATION_TTL_SECONDS: 'soon',
      });
    expect(read).toThrow(ConfigError);
    const error = (() => {
      try {
        read();
      } catch (caught) {
        return caught as ConfigError;
      }
      throw new Error('no error');
    })();
    expect(error.problems).toHaveLength(7);
    expect(error.message).not.toContain('sk-must-not-leak');
  });

  it('reads any environment to a config or one ConfigError that never holds the key', () => {
    // Any text, or one of the values a setting takes, for any of the table's variables.
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '',
        ' 0 ',
        '25',
        '1000',
        '700000',
        'true',
        'STRICT',
        'http://h/v1',
        'ftp://h',
      ),
    );
    const environment = fc.dictionary(fc.constantFrom(...handlerSettingNames), value);
    const key = fc.stringMatching(/^[0-9a-f]{24}$/).map((hex) => `sk-${hex}`);
    fc.assert(
      fc.property(environment, key, (env, apiKey) => {
        try {
          readServiceConfig({ ...env, OPENAI_API_KEY: apiKey });
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as ConfigError).message).not.toContain(apiKey);
          expect((error as ConfigError).problems.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});

describe('readServiceConfig with MODEL_PROVIDER=bedrock', () => {
  const BEDROCK = { ...BASE, MODEL_PROVIDER: 'bedrock', LLM_MODEL: 'openai.gpt-oss-20b' };

  it("signs for the function's own region at its Mantle endpoint, with no key", () => {
    const model = readServiceConfig({ ...BEDROCK, AWS_REGION: 'eu-central-1' }).languageModel;
    expect(model).toMatchObject({
      baseURL: 'https://bedrock-mantle.eu-central-1.api.aws/v1',
      model: 'openai.gpt-oss-20b',
      apiKey: { kind: 'value', value: '' },
      bedrock: { region: 'eu-central-1' },
      server: 'bedrock',
    });
  });

  it('takes BEDROCK_REGION and BEDROCK_BASE_URL over the defaults, and ignores the OpenAI settings', () => {
    const model = readServiceConfig({
      ...BEDROCK,
      AWS_REGION: 'eu-central-1',
      BEDROCK_REGION: 'us-west-2',
      BEDROCK_BASE_URL: 'https://bedrock-mantle.us-west-2.api.aws/openai/v1',
      OPENAI_BASE_URL: 'https://api.openai.com/v1',
      OPENAI_API_KEY_SECRET: 'jcc/openai-api-key',
    }).languageModel;
    expect(model).toMatchObject({
      baseURL: 'https://bedrock-mantle.us-west-2.api.aws/openai/v1',
      apiKey: { kind: 'value', value: '' },
      bedrock: { region: 'us-west-2' },
    });
  });

  it('needs the model id', () => {
    expect(() => readServiceConfig({ ...BASE, MODEL_PROVIDER: 'bedrock' })).toThrow(
      /LLM_MODEL is required when MODEL_PROVIDER is bedrock/,
    );
  });

  it('refuses a provider it does not know', () => {
    expect(() => readServiceConfig({ ...BEDROCK, MODEL_PROVIDER: 'vertex' })).toThrow(
      /MODEL_PROVIDER/,
    );
  });

  it('leaves an OpenAI-compatible server without Bedrock', () => {
    const model = readServiceConfig({
      ...BASE,
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      LLM_MODEL: 'qwen2.5:7b',
    }).languageModel;
    expect(model?.bedrock).toBeNull();
  });
});
