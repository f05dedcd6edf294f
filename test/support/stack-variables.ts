/**
 * Every variable the stack or the handlers read: cleared before a stack starts, so a developer's
 * shell (an OPENAI_API_KEY, a PORT) never leaks into a test.
 */
export const STACK_VARIABLES = [
  'PORT',
  'HOST',
  'DYNAMODB_PORT',
  'DYNAMODB_HOST',
  'DYNAMODB_ENDPOINT',
  'DATA_DIR',
  'TABLE_NAME',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'LOCAL_NODE_API_KEY',
  'LOCAL_NODE_TIMEZONE',
  'OPENAI_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_API_KEY_SECRET',
  'LLM_MODEL',
  'TURN_DEADLINE_MS',
  'PARAM_NORMALIZATION',
  'MAX_VALIDATION_RETRIES',
  'CONVERSATION_TTL_SECONDS',
  'AUTH_REJECTION_FLOOR_MS',
  'POWERTOOLS_DEV',
  'POWERTOOLS_LOG_LEVEL',
  'POWERTOOLS_LOGGER_LOG_EVENT',
] as const;
