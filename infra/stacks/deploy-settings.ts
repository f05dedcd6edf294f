import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { isWithinRange } from '../../shared/adapters/config/setting-checks';
import { handlerSettings } from '../../shared/adapters/config/settings-table';
import { failure, type Result, success } from '../../shared/result';
import { ANSWER_MARGIN_MS } from './answer-margin';
import { type ContextLookup, contextReader } from './context-values';
import {
  defaultSpeechDeploySettings,
  parseSpeechSettings,
  type SpeechDeploySettings,
} from './speech-deploy-settings';

/** Where the deployed model runs. */
export const modelProviders = ['bedrock', 'openai'] as const;
export type ModelProvider = (typeof modelProviders)[number];

/** Deploy-time choices, read from CDK context (`cdk.json` or `cdk deploy -c key=value`). */
export interface DeploySettings extends SpeechDeploySettings {
  /**
   * `bedrock` (the default): Amazon Bedrock's OpenAI-compatible endpoint in the account, called
   * with the functions' role, no secret; `openai`: the OpenAI-compatible server `openAiBaseUrl`,
   * its key in the secret `openAiSecretName`.
   */
  readonly modelProvider: ModelProvider;
  /** Bedrock's model id (docs/decisions/2026-11-26-bedrock.md says why this one). */
  readonly bedrockModel: string;
  /** Bedrock's region; null for the stack's own (the model must be offered there). */
  readonly bedrockRegion: string | null;
  /** Name of the Secrets Manager secret holding the OpenAI API key (created by hand, see docs/deploy.md). */
  readonly openAiSecretName: string;
  readonly openAiBaseUrl: string;
  /** The model of `modelProvider: openai`. */
  readonly llmModel: string;
  /**
   * Stage-wide steady-state requests per second: a safety net for the whole API, shared by every
   * caller. Fairness between nodes is the per-node limit's job (`nodeRateLimit`).
   */
  readonly throttleRateLimit: number;
  /** Stage-wide burst of requests. */
  readonly throttleBurstLimit: number;
  /** Requests one node may make per `nodeRateWindowSeconds`, across every container; 0 for none. */
  readonly nodeRateLimit: number;
  readonly nodeRateWindowSeconds: number;
  /**
   * One turn's budget (TURN_DEADLINE_MS). The Lambda timeout follows it (plus 3 s to save and
   * answer), and it must leave that margin inside `integrationTimeoutMs`.
   */
  readonly turnDeadlineMs: number;
  /**
   * How long API Gateway waits for a function: 29,000 by default; Regional REST APIs can raise it
   * with a Service Quotas request ("Maximum integration timeout"), e.g. for a slow model.
   */
  readonly integrationTimeoutMs: number;
  readonly logRetentionDays: RetentionDays;
  /**
   * API Gateway needs an account-wide role to write logs. Set false when the account already has
   * one (it is a per-region singleton that other stacks may own).
   */
  readonly createApiGatewayCloudWatchRole: boolean;
  /**
   * An address the alarm topic e-mails (AWS sends a confirmation first); null (or an empty string
   * in context) for none: subscribe something else to the topic instead.
   */
  readonly alarmEmail: string | null;
}

export const defaultDeploySettings: DeploySettings = {
  modelProvider: 'bedrock',
  bedrockModel: 'openai.gpt-oss-20b',
  bedrockRegion: null,
  openAiSecretName: 'jcc/openai-api-key',
  openAiBaseUrl: 'https://api.openai.com/v1',
  llmModel: 'gpt-4.1-mini',
  throttleRateLimit: 50,
  throttleBurstLimit: 100,
  // What the handlers take without the stack: one default, one range (settings-table.ts).
  nodeRateLimit: handlerSettings.NODE_RATE_LIMIT.default,
  nodeRateWindowSeconds: handlerSettings.NODE_RATE_WINDOW_SECONDS.default,
  turnDeadlineMs: handlerSettings.TURN_DEADLINE_MS.default,
  integrationTimeoutMs: 29_000,
  logRetentionDays: RetentionDays.ONE_MONTH,
  createApiGatewayCloudWatchRole: true,
  alarmEmail: null,
  ...defaultSpeechDeploySettings,
  // With Bedrock, no speech in unless a server is named (no secret in the default deploy); with
  // modelProvider openai, OpenAI's transcription, its key the model's (parseSpeechSettings).
  sttBaseUrl: null,
  sttApiKeySecretName: null,
};

export const deploySettingNames = Object.keys(
  defaultDeploySettings,
) as readonly (keyof DeploySettings)[];

const retentionDays = new Set<number>(
  Object.values(RetentionDays).filter((value): value is number => typeof value === 'number'),
);

/** The settings from context, each missing one defaulted, or every invalid one described. */
export function parseDeploySettings(lookup: ContextLookup): Result<DeploySettings, string> {
  const issues: string[] = [];
  const { text, number, flag, email } = contextReader<keyof DeploySettings>(lookup, issues);
  const defaults = defaultDeploySettings;
  const openAiSecretName = text('openAiSecretName', defaults.openAiSecretName);
  const modelProvider = text('modelProvider', defaults.modelProvider);
  if (!(modelProviders as readonly string[]).includes(modelProvider)) {
    issues.push(`modelProvider must be one of ${modelProviders.join(', ')}, not ${modelProvider}`);
  }
  const provider: ModelProvider = modelProvider === 'openai' ? 'openai' : 'bedrock';
  const bedrockRegion = lookup('bedrockRegion');
  const settings: DeploySettings = {
    modelProvider: provider,
    bedrockModel: text('bedrockModel', defaults.bedrockModel),
    bedrockRegion:
      bedrockRegion === undefined || bedrockRegion === null || bedrockRegion === ''
        ? null
        : text('bedrockRegion', ''),
    openAiSecretName,
    openAiBaseUrl: text('openAiBaseUrl', defaults.openAiBaseUrl),
    llmModel: text('llmModel', defaults.llmModel),
    throttleRateLimit: number('throttleRateLimit', defaults.throttleRateLimit, (n) => n > 0),
    throttleBurstLimit: number(
      'throttleBurstLimit',
      defaults.throttleBurstLimit,
      (n) => Number.isInteger(n) && n > 0,
    ),
    nodeRateLimit: number('nodeRateLimit', defaults.nodeRateLimit, (n) =>
      isWithinRange(n, handlerSettings.NODE_RATE_LIMIT.check),
    ),
    nodeRateWindowSeconds: number('nodeRateWindowSeconds', defaults.nodeRateWindowSeconds, (n) =>
      isWithinRange(n, handlerSettings.NODE_RATE_WINDOW_SECONDS.check),
    ),
    turnDeadlineMs: number('turnDeadlineMs', defaults.turnDeadlineMs, (n) =>
      isWithinRange(n, handlerSettings.TURN_DEADLINE_MS.check),
    ),
    integrationTimeoutMs: number(
      'integrationTimeoutMs',
      defaults.integrationTimeoutMs,
      (n) => Number.isInteger(n) && n >= 1_000 && n <= 900_000,
    ),
    logRetentionDays: number('logRetentionDays', defaults.logRetentionDays, (n) =>
      retentionDays.has(n),
    ),
    createApiGatewayCloudWatchRole: flag(
      'createApiGatewayCloudWatchRole',
      defaults.createApiGatewayCloudWatchRole,
    ),
    alarmEmail: email('alarmEmail'),
    ...parseSpeechSettings(lookup, { provider, openAiSecretName }, issues),
  };
  if (settings.turnDeadlineMs + ANSWER_MARGIN_MS > settings.integrationTimeoutMs) {
    issues.push(
      `turnDeadlineMs (${settings.turnDeadlineMs}) must leave ${ANSWER_MARGIN_MS} ms inside ` +
        `integrationTimeoutMs (${settings.integrationTimeoutMs}): lower it, or raise API Gateway's ` +
        'integration timeout by quota request and set integrationTimeoutMs (docs/deploy.md)',
    );
  }
  if (
    settings.bedrockRegion !== null &&
    !/^[a-z]{2,8}(-[a-z0-9]+)+-\d+$/.test(settings.bedrockRegion)
  ) {
    issues.push(`bedrockRegion is not a region: ${settings.bedrockRegion}`);
  }
  if (!URL.canParse(settings.openAiBaseUrl)) {
    issues.push(`openAiBaseUrl is not a URL: ${settings.openAiBaseUrl}`);
  }
  return issues.length === 0 ? success(settings) : failure(issues);
}

/** CDK context held values that cannot be deployed. */
export class DeploySettingsError extends Error {
  override readonly name = 'DeploySettingsError';
  constructor(readonly issues: readonly string[]) {
    super(`invalid CDK context: ${issues.join('; ')}`);
  }
}

/** The settings from context; throws `DeploySettingsError` naming every invalid value. */
export function readDeploySettings(lookup: ContextLookup): DeploySettings {
  const result = parseDeploySettings(lookup);
  if (!result.ok) throw new DeploySettingsError(result.issues);
  return result.value;
}
