import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { ComparisonOperator, type IMetric, MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { maxMetricsPerAlarm } from './jcc-metrics';
import type { RouteSignals } from './route-signals';

/** A route of the table as the alarms watch it: its name (the `route` dimension), what it emits. */
export interface ObservedRoute {
  readonly name: string;
  readonly signals: RouteSignals;
}

/** What the alarms watch: the stage, the functions and routes of the route table, the table. */
export interface ObservedResources {
  readonly stage: Stage;
  readonly functions: readonly { readonly id: string; readonly function: IFunction }[];
  readonly routes: readonly ObservedRoute[];
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
export const atLeast = (threshold: number, periods = 1, datapoints = periods) => ({
  threshold,
  evaluationPeriods: periods,
  datapointsToAlarm: datapoints,
});

export const alarmComparison = ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;

/** The names of the routes whose signals pass `test`. */
export const routesWhere = (
  routes: readonly ObservedRoute[],
  test: (signals: RouteSignals) => boolean,
) => routes.filter((route) => test(route.signals)).map((route) => route.name);

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
