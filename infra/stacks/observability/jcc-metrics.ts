import { Duration } from 'aws-cdk-lib';
import {
  type IMetric,
  MathExpression,
  Metric,
  type MetricOptions,
} from 'aws-cdk-lib/aws-cloudwatch';
import { metricsNamespace, powertoolsServiceName } from '../function-environment';

/**
 * The metrics the handlers emit through Powertools (embedded metric format): `latency` and the
 * `route` dimension in functions/http/create-route.ts, `status_<code>` in handle-errors.ts, the
 * per-turn counts in voice-response.ts. Each carries the `service` dimension; those emitted after
 * the route handler started also carry `route` (the route table's name).
 */
export const JccMetric = {
  /** Milliseconds the route handler took (one sample per answered request). */
  latency: 'latency',
  /** Model calls of one turn (one sample per turn that ran; replays are not turns). */
  modelCalls: 'model_calls',
  validationRetries: 'validation_retries',
  parameterRepairs: 'parameter_repairs',
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
} as const;

/** The error statuses the error table answers (functions/http/error-table.ts), each counted. */
export const errorStatuses = [400, 401, 404, 409, 413, 415, 422, 429, 500, 502, 503, 504] as const;

/**
 * Statuses the edge answers before the route handler adds its `route` dimension (a bad key, a
 * node over its rate limit, a body that is not JSON or not valid): their counts carry `service`
 * only, so they are not per route.
 */
export const edgeStatuses = [400, 401, 413, 415, 429] as const;

export const statusMetricName = (status: number): string => `status_${status}`;

/** The period of every alarm and graph unless one says otherwise. */
export const defaultPeriod = Duration.minutes(5);

/** One of our metrics, for one route (`null`: the edge's, without a route dimension). */
export function jccMetric(
  metricName: string,
  route: string | null,
  options: MetricOptions = {},
): Metric {
  return new Metric({
    namespace: metricsNamespace,
    metricName,
    dimensionsMap: {
      service: powertoolsServiceName,
      ...(route === null ? {} : { route }),
    },
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
