/**
 * The model failures with an answer of their own, by the adapter's failure: the error code and
 * what the node is told (error-table.ts answers each with a 502; every other failure is
 * `llm_failed`). Each code is also a metric of the request (Count, dimensions `service` and
 * `route`), for the alarms and the graph that say which fix is needed: a throttle (a quota), the
 * credentials, the IAM action or the model access. A module of constants only: the stack reads
 * it (jcc-metrics.ts) without the handlers' code.
 */
export const MODEL_FAILURES = {
  rate_limited: {
    code: 'llm_throttled',
    message: 'The language model is throttling this service on every attempt; retry shortly.',
  },
  credentials_rejected: {
    code: 'llm_credentials_rejected',
    message:
      "The model's cloud provider refused the service's credentials; an operator must fix them.",
  },
  permission_denied: {
    code: 'llm_permission_denied',
    message: 'The service may not call its language model (IAM); an operator must grant it.',
  },
  model_access_denied: {
    code: 'llm_model_access_denied',
    message:
      'The account has no access to the configured model in its region; an operator must request it.',
  },
} as const;

type ModelFailureAnswer = (typeof MODEL_FAILURES)[keyof typeof MODEL_FAILURES];

export type ModelFailureCode = ModelFailureAnswer['code'];

/** The answer of its own of an adapter's failure; undefined for those answered `llm_failed`. */
export const modelFailureAnswer = (failure: string): ModelFailureAnswer | undefined =>
  Object.hasOwn(MODEL_FAILURES, failure)
    ? MODEL_FAILURES[failure as keyof typeof MODEL_FAILURES]
    : undefined;

const codes: ReadonlySet<string> = new Set(
  Object.values(MODEL_FAILURES).map((answer) => answer.code),
);

/** Whether an answer's error code is one of those, counted as its own metric. */
export const isModelFailureCode = (code: string): code is ModelFailureCode => codes.has(code);
