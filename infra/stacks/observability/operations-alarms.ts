import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import {
  defaultPeriod,
  JccMetric,
  maxMetricsPerAlarm,
  statusMetricName,
  sumOverRoutes,
} from './jcc-metrics';

/** What the alarms watch: the stage, the functions and routes of the route table, the table. */
export interface ObservedResources {
  readonly stage: Stage;
  readonly functions: readonly { readonly id: string; readonly function: IFunction }[];
  /** Names (the `route` metric dimension) of the routes served by a function that calls the model. */
  readonly modelRoutes: readonly string[];
  /** Names of the routes that run conversation turns, which may end in validation_required. */
  readonly turnRoutes: readonly string[];
  readonly tableName: string;
  /** The DynamoDB operations the functions use (`GetItem`, ...): SystemErrors is per operation. */
  readonly tableOperations: readonly string[];
  readonly turnDeadlineMs: number;
}

/** One alarm: the description says why it matters and where to look first. */
export interface AlarmSpec {
  readonly id: string;
  readonly description: string;
  readonly metric: IMetric;
  readonly threshold: number;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm: number;
}

/** Alarm when the value is at or above the threshold in `datapoints` of the last `periods`. */
const atLeast = (threshold: number, periods = 1, datapoints = periods) => ({
  threshold,
  evaluationPeriods: periods,
  datapointsToAlarm: datapoints,
});

export const alarmComparison = ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;

/** Share of turns that ended by asking the user, counted only past `minimum` such turns. */
function validationRequiredShare(routes: readonly string[], minimum: number): IMetric {
  const period = Duration.minutes(15);
  return new MathExpression({
    expression: `IF(asked >= ${minimum}, 100 * asked / turns, 0)`,
    usingMetrics: {
      asked: sumOverRoutes(JccMetric.stopValidationRequired, routes, { idPrefix: 'v' }),
      // One model_calls sample per turn that ran: its sample count is the number of turns.
      turns: sumOverRoutes(JccMetric.modelCalls, routes, {
        idPrefix: 't',
        statistic: 'SampleCount',
      }),
    },
    period,
    label: '% of turns ending in validation_required',
  });
}

/** Every alarm of the service, from the route and function tables (nothing listed by hand). */
export function operationsAlarms(observed: ObservedResources): AlarmSpec[] {
  const { stage } = observed;
  const serverErrorRate = new MathExpression({
    expression: 'IF(errors >= 3, 100 * errors / requests, 0)',
    usingMetrics: {
      errors: stage.metricServerError({ statistic: 'Sum', period: defaultPeriod }),
      requests: stage.metricCount({ statistic: 'Sum', period: defaultPeriod }),
    },
    period: defaultPeriod,
    label: '5xx % of requests (past 3 errors)',
  });
  const nearDeadlineMs = Math.round(observed.turnDeadlineMs * 0.9);
  const alarms: AlarmSpec[] = [
    {
      id: 'ApiServerErrorRate',
      description:
        'At least 3 answers and 5% of all requests in 5 minutes were 5xx: nodes are failing. ' +
        'Look at the model and turn-timeout alarms, then the functions’ ERROR log lines.',
      metric: serverErrorRate,
      ...atLeast(5),
    },
    {
      id: 'ApiLatencyNearDeadline',
      description:
        `API p99 latency at or above ${nearDeadlineMs} ms (90% of the ${observed.turnDeadlineMs} ms ` +
        'turn deadline) in 2 of 3 five-minute periods: the model is slowing down and turns will ' +
        'soon be cut off (504 turn_timeout). Check the model endpoint or a faster model.',
      metric: stage.metricLatency({ statistic: 'p99', period: defaultPeriod }),
      ...atLeast(nearDeadlineMs, 3, 2),
    },
    ...observed.functions.flatMap((fn): AlarmSpec[] => [
      {
        id: `${fn.id}Errors`,
        description:
          `${fn.id}: the Lambda runtime reported an error. The handler answers every failure ` +
          'itself, so this is a failed init (e.g. the OpenAI secret missing in this region), a ' +
          '28 s timeout or running out of memory: read the function log group.',
        metric: fn.function.metricErrors({ statistic: 'Sum', period: defaultPeriod }),
        ...atLeast(1),
      },
      {
        id: `${fn.id}Throttles`,
        description:
          `${fn.id}: Lambda refused invocations (account or reserved concurrency exhausted); ` +
          'nodes got errors from API Gateway. Raise the concurrency quota or lower the stage throttle.',
        metric: fn.function.metricThrottles({ statistic: 'Sum', period: defaultPeriod }),
        ...atLeast(1),
      },
    ]),
    ...modelAlarms(observed.modelRoutes, observed.turnRoutes),
    ...tableAlarms(observed),
  ];
  return alarms;
}

function modelAlarms(routes: readonly string[], turnRoutes: readonly string[]): AlarmSpec[] {
  if (routes.length === 0) return [];
  const alarms: AlarmSpec[] = [
    {
      id: 'ModelFailures',
      description:
        'At least 3 answers of 502 llm_failed in 5 minutes: the model endpoint failed after the ' +
        'SDK retries (outage, rate limit, revoked key, unknown model name). See the ' +
        '"request failed" WARN lines (status 502) of the voice functions.',
      metric: sumOverRoutes(statusMetricName(502), routes, { idPrefix: 'm', label: '502s' }),
      ...atLeast(3),
    },
    {
      id: 'TurnTimeouts',
      description:
        'At least 3 answers of 504 turn_timeout in 5 minutes: turns ran out of their deadline, ' +
        'usually a slow model or many retries. Compare model calls per turn on the dashboard.',
      metric: sumOverRoutes(statusMetricName(504), routes, { idPrefix: 'm', label: '504s' }),
      ...atLeast(3),
    },
  ];
  if (turnRoutes.length === 0) return alarms;
  return [
    ...alarms,
    {
      id: 'ValidationRequiredSpike',
      description:
        'At least 5 turns and 25% of turns in 15 minutes ended in validation_required: the ' +
        'model stopped producing arguments of the declared types even after the retries (a new ' +
        'model version, a changed prompt or command set). Users are being asked instead of served.',
      metric: validationRequiredShare(turnRoutes, 5),
      ...atLeast(25),
    },
  ];
}

function tableAlarms(observed: ObservedResources): AlarmSpec[] {
  const dynamoDb = (metricName: string, dimensions: Record<string, string>) =>
    new Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap: { TableName: observed.tableName, ...dimensions },
      statistic: 'Sum',
      period: defaultPeriod,
    });
  const systemErrors = Object.fromEntries(
    observed.tableOperations.map((operation, index) => [
      `e${index}`,
      dynamoDb('SystemErrors', { Operation: operation }),
    ]),
  );
  return [
    {
      id: 'TableThrottles',
      description:
        'DynamoDB throttled at least 5 requests in 5 minutes (on demand: a hot key or a sudden ' +
        'jump past twice the previous peak). The SDK retries; past its 3 attempts nodes get 503 ' +
        'storage_unavailable.',
      metric: new MathExpression({
        expression: 'FILL(reads, 0) + FILL(writes, 0)',
        usingMetrics: {
          reads: dynamoDb('ReadThrottleEvents', {}),
          writes: dynamoDb('WriteThrottleEvents', {}),
        },
        period: defaultPeriod,
        label: 'throttle events',
      }),
      ...atLeast(5),
    },
    {
      id: 'TableSystemErrors',
      description:
        'DynamoDB answered at least 3 internal errors in 5 minutes: an AWS-side problem; nodes ' +
        'get 503 storage_unavailable past the SDK retries. Check the AWS Health Dashboard.',
      metric: new MathExpression({
        expression: Object.keys(systemErrors)
          .map((id) => `FILL(${id}, 0)`)
          .join(' + '),
        usingMetrics: systemErrors,
        period: defaultPeriod,
        label: 'system errors',
      }),
      ...atLeast(3),
    },
  ];
}

/** How many metrics an alarm's expression reads, nested expressions included. */
export function metricCount(metric: IMetric): number {
  if (!(metric instanceof MathExpression)) return 1;
  return Object.values(metric.usingMetrics).reduce((total, used) => total + metricCount(used), 0);
}

/** Throws when an alarm reads more metrics than CloudWatch allows, naming it and the fix. */
export function assertAlarmsFit(alarms: readonly AlarmSpec[]): void {
  for (const alarm of alarms) {
    const count = metricCount(alarm.metric);
    if (count > maxMetricsPerAlarm) {
      throw new Error(
        `alarm ${alarm.id} reads ${count} metrics, CloudWatch allows ${maxMetricsPerAlarm}: ` +
          'split it (e.g. per function) in infra/stacks/observability/operations-alarms.ts',
      );
    }
  }
}
