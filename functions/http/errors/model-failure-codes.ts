/**
 * The model failures with an error code of their own (still 502s: the ModelFailures alarm counts
 * them with `llm_failed`), by the adapter's failure. Each code is also a metric of the request
 * (Count, dimensions `service` and `route`), for the alarms and the graph that say which fix is
 * needed: a throttle (a quota), the credentials, the IAM action or the model access. A module of
 * constants only: the stack reads it (jcc-metrics.ts) without the handlers' code.
 */
export const MODEL_FAILURE_CODES = {
  rate_limited: 'llm_throttled',
  credentials_rejected: 'llm_credentials_rejected',
  permission_denied: 'llm_permission_denied',
  model_access_denied: 'llm_model_access_denied',
} as const;

/**
 * The speech provider failures with a code of their own (502s like `speech_provider_failed`, and
 * counted with it as `speech_provider_errors`): an AWS provider (Transcribe) refusing the
 * credentials, the IAM action, or a new stream past its quota. Each is a metric too.
 */
export const SPEECH_FAILURE_CODES = {
  credentials_rejected: 'speech_credentials_rejected',
  permission_denied: 'speech_permission_denied',
  throttled: 'speech_throttled',
} as const;

type ProviderFailureCode =
  | (typeof MODEL_FAILURE_CODES)[keyof typeof MODEL_FAILURE_CODES]
  | (typeof SPEECH_FAILURE_CODES)[keyof typeof SPEECH_FAILURE_CODES];

const codes: ReadonlySet<string> = new Set([
  ...Object.values(MODEL_FAILURE_CODES),
  ...Object.values(SPEECH_FAILURE_CODES),
]);

/** Whether an answer's error code is one of those, counted as its own metric. */
export const isProviderFailureCode = (code: string): code is ProviderFailureCode => codes.has(code);
