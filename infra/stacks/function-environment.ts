import type { DeploySettings } from './deploy-settings';

/**
 * Every variable the handlers read. All are declared on every function, even when empty in AWS,
 * because `sam local --env-vars` can only override variables the template declares.
 */
export const functionEnvironmentNames = [
  'TABLE_NAME',
  'DYNAMODB_ENDPOINT',
  'OPENAI_BASE_URL',
  'LLM_MODEL',
  'OPENAI_API_KEY_SECRET',
  'OPENAI_API_KEY',
  'TURN_DEADLINE_MS',
  'PARAM_NORMALIZATION',
  'MAX_VALIDATION_RETRIES',
  'CONVERSATION_TTL_SECONDS',
  'NODE_RATE_LIMIT',
  'NODE_RATE_WINDOW_SECONDS',
  'POWERTOOLS_SERVICE_NAME',
  'POWERTOOLS_METRICS_NAMESPACE',
  'POWERTOOLS_LOG_LEVEL',
  'NODE_OPTIONS',
] as const;

export type FunctionEnvironmentName = (typeof functionEnvironmentNames)[number];

/** Powertools names: the dashboard and alarms read the metrics the handlers emit under them. */
export const powertoolsServiceName = 'jcc';
export const metricsNamespace = 'Jcc';

/** What the environment depends on beyond the fixed defaults. */
export interface FunctionEnvironmentInputs {
  /** The table's name (a CloudFormation token in the stack). */
  readonly tableName: string;
  readonly settings: Pick<
    DeploySettings,
    | 'openAiSecretName'
    | 'openAiBaseUrl'
    | 'llmModel'
    | 'nodeRateLimit'
    | 'nodeRateWindowSeconds'
    | 'turnDeadlineMs'
  >;
  /**
   * Whether the function may call the model. One that never does is not told where the model or
   * its key is (the variables stay declared, empty), and its role cannot read the secret.
   */
  readonly callsModel: boolean;
}

/**
 * The environment of every function in AWS. The OpenAI key is never here: only the name of the
 * secret holding it, which a function that calls the model reads once per container. The local-only variables
 * (`DYNAMODB_ENDPOINT`, `OPENAI_API_KEY`) are empty so the SDK defaults apply.
 */
export function functionEnvironment(
  inputs: FunctionEnvironmentInputs,
): Record<FunctionEnvironmentName, string> {
  const model = (value: string): string => (inputs.callsModel ? value : '');
  return {
    TABLE_NAME: inputs.tableName,
    DYNAMODB_ENDPOINT: '',
    OPENAI_BASE_URL: model(inputs.settings.openAiBaseUrl),
    LLM_MODEL: model(inputs.settings.llmModel),
    OPENAI_API_KEY_SECRET: model(inputs.settings.openAiSecretName),
    OPENAI_API_KEY: '',
    TURN_DEADLINE_MS: String(inputs.settings.turnDeadlineMs),
    PARAM_NORMALIZATION: 'lossless',
    MAX_VALIDATION_RETRIES: '2',
    CONVERSATION_TTL_SECONDS: '86400',
    NODE_RATE_LIMIT: String(inputs.settings.nodeRateLimit),
    NODE_RATE_WINDOW_SECONDS: String(inputs.settings.nodeRateWindowSeconds),
    POWERTOOLS_SERVICE_NAME: powertoolsServiceName,
    POWERTOOLS_METRICS_NAMESPACE: metricsNamespace,
    POWERTOOLS_LOG_LEVEL: 'INFO',
    NODE_OPTIONS: '--enable-source-maps',
  };
}
