import { Duration } from 'aws-cdk-lib';
import {
  type IMetric,
  MathExpression,
  Metric,
  type MetricOptions,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SPEECH_METRICS } from '../../../functions/http/answers/speech-metrics';
import {
  MODEL_FAILURES,
  SPEECH_FAILURES,
} from '../../../functions/http/errors/provider-failure-codes';
import { metricsNamespace, powertoolsServiceName } from '../function-environment';

/**
 * The metrics the handlers emit through Powertools (embedded metric format): `latency` in
 * functions/http/edge/create-route.ts, `status_<code>` in handle-errors.ts, the per-turn counts in
 * voice-response.ts, `warmup_<outcome>` in functions/conversation-start.ts. Each carries the
 * `service` and `route` dimensions (the route table's name), refusals at the edge included. Which
 * route emits which: route-signals.ts.
 */
export const JccMetric = {
  /** Milliseconds the route handler took (one sample per answered request). */
  latency: 'latency',
  /** Model calls of one turn (one sample per turn that ran; replays are not turns). */
  modelCalls: 'model_calls',
  validationRetries: 'validation_retries',
  /** Repairs of the calls handed to the node (what the response lists). */
  parameterRepairs: 'parameter_repairs',
  /** Repairs of every attempt of the turn, the calls the model redid included. */
  parameterRepairsAllAttempts: 'parameter_repairs_all_attempts',
  replayedRequests: 'replayed_requests',
  stopToolCalls: 'stop_tool_calls',
  stopValidationRequired: 'stop_validation_required',
  stopComplete: 'stop_complete',
  /** Tokens the model server reported for one turn's calls (voice-response.ts). */
  promptTokens: 'prompt_tokens',
  completionTokens: 'completion_tokens',
  cachedTokens: 'cached_tokens',
  /** Of the completion tokens, those spent thinking (0 when the server reports none). */
  reasoningTokens: 'reasoning_tokens',
  /** 1 for a turn whose call refines the last refinable call, else 0. */
  refinements: 'refinements',
  /** 1 for a turn the node's commands answered (their spoken messages, no model call), else 0. */
  commandAnswers: 'command_answers',
} as const;

/**
 * The speech metrics: what is billed (seconds heard, characters spoken), how soon the node hears
 * the first byte, and what failed. The names the handlers emit, read from their own table (a
 * module of constants only: nothing of the functions comes into the CDK app).
 */
export const SpeechMetric = SPEECH_METRICS;

/**
 * The model failures counted by their code (each answer one of them is also a 502): the names the
 * handlers emit, read from their own table (functions/http/errors/provider-failure-codes.ts).
 */
export const ModelFailureMetric = {
  throttled: MODEL_FAILURES.rate_limited.code,
  credentialsRejected: MODEL_FAILURES.credentials_rejected.code,
  permissionDenied: MODEL_FAILURES.permission_denied.code,
  modelAccessDenied: MODEL_FAILURES.model_access_denied.code,
} as const;

/**
 * The speech provider refusals counted by their code (each also a 502 and a provider error):
 * Amazon Transcribe refusing the credentials, the IAM action, or a stream past its quota.
 */
export const SpeechFailureMetric = {
  credentialsRejected: SPEECH_FAILURES.credentials_rejected.code,
  permissionDenied: SPEECH_FAILURES.permission_denied.code,
  throttled: SPEECH_FAILURES.throttled.code,
} as const;

/** 1 for a chat whose reply the model cut off at its token limit, else 0. */
export const chatCutOff = 'chat_cut_off';

/**
 * The outcomes of conversation/start's model warm-up, each counted (`WarmUp` of
 * shared/conversation/use-cases/warm-up-model.ts, not imported: it would bring the engine into
 * the CDK app; the emitted-metrics test sees each one emitted).
 */
export const warmUpOutcomes = [
  'warmed',
  'skipped',
  'recently_warmed',
  'no_model',
  'timed_out',
  'failed',
] as const;

export const warmUpMetricName = (outcome: string): string => `warmup_${outcome}`;

export const statusMetricName = (status: number): string => `status_${status}`;

/** The period of every alarm and graph unless one says otherwise. */
export const defaultPeriod = Duration.minutes(5);

/** One of our metrics, for one route. */
export function jccMetric(metricName: string, route: string, options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: metricsNamespace,
    metricName,
    dimensionsMap: { service: powertoolsServiceName, route },
    period: defaultPeriod,
    ...options,
  });
}

/** The most metrics one CloudWatch alarm's expression may use. */
export const maxMetricsPerAlarm = 10;

/**
 * `metricName` summed over `routes`, a route without data counting 0. `idPrefix` keeps the ids
 * unique when several sums meet in one expression.
 */
export function sumOverRoutes(
  metricName: string,
  routes: readonly string[],
  options: { readonly idPrefix: string; readonly statistic?: string; readonly label?: string },
): IMetric {
  if (routes.length === 0) throw new Error(`sumOverRoutes(${metricName}): no route`);
  const usingMetrics = Object.fromEntries(
    routes.map((route, index) => [
      `${options.idPrefix}${index}`,
      jccMetric(metricName, route, { statistic: options.statistic ?? 'Sum' }),
    ]),
  );
  return new MathExpression({
    expression: Object.keys(usingMetrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(' + '),
    usingMetrics,
    period: defaultPeriod,
    label: options.label ?? `${metricName} (all routes)`,
  });
}
