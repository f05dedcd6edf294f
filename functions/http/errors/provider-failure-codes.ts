/**
 * The provider failures with an answer of their own, by the adapter's failure: the error code and
 * what the node is told, for the language model (MODEL_FAILURES; every other failure is
 * `llm_failed`) and the speech provider (SPEECH_FAILURES; every other is
 * `speech_provider_failed`). error-table.ts answers each with a 502. Each code is also a metric
 * of the request (Count, dimensions `service` and `route`), for the alarms and the graph that say
 * which fix is needed: a throttle (a quota), the credentials, the IAM action or the model access.
 * A module of constants only: the stack reads it (jcc-metrics.ts) without the handlers' code.
 */

/** The language model's failures with an answer of their own. */
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

/** The answer of its own of a failure in `answers`; undefined for one answered generically. */
const ownAnswer = <Answers extends Readonly<Record<string, { readonly code: string }>>>(
  answers: Answers,
  failure: string,
): Answers[keyof Answers] | undefined =>
  Object.hasOwn(answers, failure) ? answers[failure as keyof Answers] : undefined;

/** The answer of its own of an adapter's failure; undefined for those answered `llm_failed`. */
export const modelFailureAnswer = (failure: string): ModelFailureAnswer | undefined =>
  ownAnswer(MODEL_FAILURES, failure);

/**
 * The speech provider failures with an answer of their own (502s like `speech_provider_failed`,
 * and counted with it as `speech_provider_errors`): an AWS provider (Transcribe) refusing the
 * credentials, the IAM action, or a new stream past its quota. Each code is a metric too.
 */
export const SPEECH_FAILURES = {
  credentials_rejected: {
    code: 'speech_credentials_rejected',
    message:
      "The speech provider refused the service's AWS credentials; an operator must fix them.",
  },
  permission_denied: {
    code: 'speech_permission_denied',
    message: 'The service may not call its speech provider (IAM); an operator must grant it.',
  },
  throttled: {
    code: 'speech_throttled',
    message: 'The speech provider refused a new stream past its quota; retry shortly.',
  },
} as const;

type SpeechFailureAnswer = (typeof SPEECH_FAILURES)[keyof typeof SPEECH_FAILURES];

/** The answer of its own of a speech provider's failure; undefined for `speech_provider_failed`. */
export const speechFailureAnswer = (failure: string): SpeechFailureAnswer | undefined =>
  ownAnswer(SPEECH_FAILURES, failure);

type ProviderFailureCode = ModelFailureAnswer['code'] | SpeechFailureAnswer['code'];

const codes: ReadonlySet<string> = new Set([
  ...Object.values(MODEL_FAILURES).map((answer) => answer.code),
  ...Object.values(SPEECH_FAILURES).map((answer) => answer.code),
]);

/** Whether an answer's error code is one of those, counted as its own metric. */
export const isProviderFailureCode = (code: string): code is ProviderFailureCode => codes.has(code);
