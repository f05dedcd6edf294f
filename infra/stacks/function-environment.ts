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
  'POWERTOOLS_SERVICE_NAME',
  'POWERTOOLS_METRICS_NAMESPACE',
  'POWERTOOLS_LOG_LEVEL',
  'NODE_OPTIONS',
] as const;

export type FunctionEnvironmentName = (typeof functionEnvironmentNames)[number];

/** What the environment depends on beyond the fixed defaults. */
export interface FunctionEnvironmentInputs {
  /** The table's name (a CloudFormation token in the stack). */
  readonly tableName: string;
  readonly settings: Pick<DeploySettings, 'openAiSecretName' | 'openAiBaseUrl' | 'llmModel'>;
}

/**
 * The environment of every function in AWS. The OpenAI key is never here: only the name of the
 * secret holding it, which the function reads once per container. The local-only variables
 * (`DYNAMODB_ENDPOINT`, `OPENAI_API_KEY`) are empty so the SDK defaults apply.
 */
export function functionEnvironment(
  inputs: FunctionEnvironmentInputs,
): Record<FunctionEnvironmentName, string> {
  return {
    TABLE_NAME: inputs.tableName,
    DYNAMODB_ENDPOINT: '',
    OPENAI_BASE_URL: inputs.settings.openAiBaseUrl,
    LLM_MODEL: inputs.settings.llmModel,
    OPENAI_API_KEY_SECRET: inputs.settings.openAiSecretName,
    OPENAI_API_KEY: '',
    // API Gateway gives up after 29 s; the turn stops at 25 s to leave time to save and answer.
    TURN_DEADLINE_MS: '25000',
    PARAM_NORMALIZATION: 'lossless',
    MAX_VALIDATION_RETRIES: '2',
    CONVERSATION_TTL_SECONDS: '86400',
    POWERTOOLS_SERVICE_NAME: 'jcc',
    POWERTOOLS_METRICS_NAMESPACE: 'Jcc',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    NODE_OPTIONS: '--enable-source-maps',
  };
}
