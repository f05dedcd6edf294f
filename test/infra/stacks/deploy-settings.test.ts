import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import {
  DeploySettingsError,
  defaultDeploySettings,
  deploySettingNames,
  parseDeploySettings,
  readDeploySettings,
} from '../../../infra/stacks/deploy-settings';
import { cdkJsonContext } from '../synthesize-jcc-app';

const lookupFrom =
  (context: Record<string, unknown>) =>
  (key: string): unknown =>
    context[key];

describe('parseDeploySettings', () => {
  it('defaults every setting when the context holds none', () => {
    // Prepare
    const lookup = lookupFrom({});

    // Act
    const result = parseDeploySettings(lookup);

    // Assess
    expect(result).toEqual({ ok: true, value: defaultDeploySettings });
  });

  it.each([
    ['openAiSecretName', 'prod/jcc/openai', 'prod/jcc/openai'],
    ['openAiBaseUrl', 'http://10.0.0.5:8000/v1', 'http://10.0.0.5:8000/v1'],
    ['llmModel', ' gpt-4.1 ', 'gpt-4.1'],
    ['throttleRateLimit', '2.5', 2.5],
    ['throttleRateLimit', 7, 7],
    ['throttleBurstLimit', '40', 40],
    ['logRetentionDays', '90', RetentionDays.THREE_MONTHS],
    ['createApiGatewayCloudWatchRole', 'false', false],
    ['createApiGatewayCloudWatchRole', false, false],
    ['alarmEmail', ' ops@example.com ', 'ops@example.com'],
    ['alarmEmail', '', null],
    ['ttsProvider', 'none', 'none'],
    ['ttsVoice', ' Matthew ', 'Matthew'],
    ['pollyEngine', 'standard', 'standard'],
    ['sttBaseUrl', 'https://api.groq.com/openai/v1', 'https://api.groq.com/openai/v1'],
    ['sttBaseUrl', '', null],
    ['sttModel', 'whisper-large-v3', 'whisper-large-v3'],
    ['modelProvider', 'openai', 'openai'],
    ['bedrockModel', ' qwen.qwen3-32b ', 'qwen.qwen3-32b'],
    ['bedrockRegion', 'us-west-2', 'us-west-2'],
    ['bedrockRegion', '', null],
    ['sttProvider', 'transcribe', 'transcribe'],
    ['transcribeLanguage', ' fr-CA ', 'fr-CA'],
  ])('reads %s = %j (command line strings included) as %j', (key, given, expected) => {
    // Prepare
    const lookup = lookupFrom({ [key]: given });

    // Act
    const result = parseDeploySettings(lookup);

    // Assess
    expect(result.ok && result.value[key as keyof typeof defaultDeploySettings]).toEqual(expected);
  });

  it.each([
    ['openAiSecretName', ''],
    ['openAiBaseUrl', 'not a url'],
    ['llmModel', 42],
    ['throttleRateLimit', '0'],
    ['throttleRateLimit', 'fast'],
    ['throttleBurstLimit', '2.5'],
    ['logRetentionDays', '31'],
    ['createApiGatewayCloudWatchRole', 'yes'],
    ['alarmEmail', 'ops at example.com'],
    ['alarmEmail', true],
    ['nodeRateLimit', '-1'],
    ['nodeRateLimit', '100001'],
    ['nodeRateWindowSeconds', '0'],
    ['turnDeadlineMs', '999'],
    ['ttsProvider', 'embedded'],
    ['pollyEngine', 'turbo'],
    ['sttBaseUrl', 'not a url'],
    ['ttsVoice', 42],
    ['modelProvider', 'vertex'],
    ['bedrockRegion', 'Ireland'],
    ['bedrockModel', ''],
    ['sttProvider', 'whisper'],
  ])('rejects %s = %j, naming the setting', (key, given) => {
    // Prepare
    const lookup = lookupFrom({ [key]: given });

    // Act
    const result = parseDeploySettings(lookup);

    // Assess
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues).toEqual([expect.stringContaining(key)]);
  });
});

describe('parseDeploySettings of speech', () => {
  it('speaks through Polly and hears nothing unless told otherwise: the default deploy has no secret', () => {
    const result = parseDeploySettings(lookupFrom({}));

    expect(result.ok && result.value).toMatchObject({
      modelProvider: 'bedrock',
      ttsProvider: 'polly',
      sttBaseUrl: null,
      sttApiKeySecretName: null,
    });
  });

  it('hears through OpenAI with the model’s key when the model is OpenAI’s', () => {
    const result = parseDeploySettings(
      lookupFrom({ modelProvider: 'openai', openAiSecretName: 'prod/openai' }),
    );

    expect(result.ok && result.value).toMatchObject({
      ttsProvider: 'polly',
      pollyEngine: 'neural',
      sttBaseUrl: 'https://api.openai.com/v1',
      sttApiKeySecretName: 'prod/openai',
    });
  });

  it('reads no transcription key when speech in is off', () => {
    const result = parseDeploySettings(lookupFrom({ sttBaseUrl: '' }));

    expect(result.ok && result.value.sttApiKeySecretName).toBeNull();
  });

  it('hears through Transcribe with no server and no secret, even with the OpenAI model', () => {
    const result = parseDeploySettings(
      lookupFrom({
        modelProvider: 'openai',
        sttProvider: 'transcribe',
        sttBaseUrl: 'https://api.groq.com/openai/v1',
      }),
    );

    expect(result.ok && result.value).toMatchObject({
      sttProvider: 'transcribe',
      transcribeLanguage: 'en-US',
      sttBaseUrl: null,
      sttApiKeySecretName: null,
    });
  });

  it('refuses a Transcribe language that is not a language code', () => {
    const result = parseDeploySettings(
      lookupFrom({ sttProvider: 'transcribe', transcribeLanguage: 'German' }),
    );

    expect(!result.ok && result.issues).toEqual([expect.stringContaining('transcribeLanguage')]);
  });

  it('refuses an OpenAI-compatible speech server without its URL', () => {
    const result = parseDeploySettings(lookupFrom({ ttsProvider: 'openai' }));

    expect(!result.ok && result.issues).toEqual([expect.stringContaining('ttsBaseUrl')]);
  });
});

describe('parseDeploySettings against the handlers', () => {
  it('refuses a turn deadline the handlers would refuse at every start, whatever the gateway waits', () => {
    // Prepare
    const lookup = lookupFrom({ turnDeadlineMs: '700000', integrationTimeoutMs: '900000' });

    // Act
    const result = parseDeploySettings(lookup);

    // Assess
    expect(!result.ok && result.issues).toEqual(['turnDeadlineMs is invalid: "700000"']);
  });

  it('takes the longest deadline the handlers take', () => {
    // Prepare
    const lookup = lookupFrom({ turnDeadlineMs: '600000', integrationTimeoutMs: '603000' });

    // Act
    const result = parseDeploySettings(lookup);

    // Assess
    expect(result.ok && result.value.turnDeadlineMs).toBe(600_000);
  });
});

describe('readDeploySettings', () => {
  it('throws one DeploySettingsError listing every invalid setting', () => {
    // Prepare
    const lookup = lookupFrom({ throttleRateLimit: '-1', logRetentionDays: 'forever' });

    // Act
    const read = () => readDeploySettings(lookup);

    // Assess
    expect(read).toThrow(DeploySettingsError);
    expect(read).toThrow(/throttleRateLimit.*logRetentionDays/);
  });
});

describe('cdk.json', () => {
  const context = cdkJsonContext();
  const settingKeys = Object.keys(context).filter((key) => !key.startsWith('@aws-cdk'));

  it('holds only known deploy settings besides feature flags (a typo would be ignored silently)', () => {
    // Prepare / Act
    const unknown = settingKeys.filter(
      (key) => !(deploySettingNames as readonly string[]).includes(key),
    );

    // Assess
    expect(unknown).toEqual([]);
  });

  it('defaults agree with the code, so an in-process synth and `cdk synth` deploy the same', () => {
    // Prepare / Act
    const result = parseDeploySettings(lookupFrom(context));

    // Assess
    expect(result).toEqual({ ok: true, value: defaultDeploySettings });
  });
});
