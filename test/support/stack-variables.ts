import { handlerSettingNames } from '../../shared/adapters/config/settings-table';

/** What `npm start` reads beyond the handlers (infra/local/local-settings.ts; TABLE_NAME is both). */
export const LOCAL_VARIABLES = [
  'PORT',
  'HOST',
  'DYNAMODB_PORT',
  'DYNAMODB_HOST',
  'DATA_DIR',
  'LOCAL_NODE_API_KEY',
  'LOCAL_NODE_TIMEZONE',
  'STT_THREADS',
] as const;

/** Powertools' own switches for a developer's shell, never set by the stack. */
const POWERTOOLS_LOCAL_VARIABLES = ['POWERTOOLS_DEV', 'POWERTOOLS_LOGGER_LOG_EVENT'] as const;

/**
 * Every variable the stack or the handlers read: cleared before a stack starts, so a developer's
 * shell (an OPENAI_API_KEY, a PORT) never leaks into a test. The handlers' come from the settings
 * table (shared/adapters/config/settings-table.ts).
 */
export const STACK_VARIABLES: readonly string[] = [
  ...LOCAL_VARIABLES,
  ...handlerSettingNames,
  ...POWERTOOLS_LOCAL_VARIABLES,
];
