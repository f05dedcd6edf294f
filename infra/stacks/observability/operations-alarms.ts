import { type IMetric, MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import {
  type AlarmSpec,
  atLeast,
  type ObservedResources,
  type ObservedRoute,
  routesWhere,
} from './alarm-spec';
import { defaultPeriod, JccMetric, jccMetric } from './jcc-metrics';
import { modelAlarms, speechAlarms } from './model-alarms';
import { tableAlarms } from './table-alarms';

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
        `The p99 time of turns on some route at or above ${nearDeadlineMs} ms (90% of the ` +
        `${observed.turnDeadlineMs} ms turn deadline) in 2 of 3 five-minute periods: the model ` +
        'is slowing down and turns will soon be cut off (504 turn_timeout). Check the model ' +
        'endpoint or a faster model. The route is the line over the threshold on the dashboard.',
      metric: slowestTurnRoute(observed.routes),
      ...atLeast(nearDeadlineMs, 3, 2),
    },
    ...observed.functions.flatMap((fn): AlarmSpec[] => [
      {
        id: `${fn.id}Errors`,
        description:
          `${fn.id}: the Lambda runtime reported an error. The handler answers every failure ` +
          'itself, so this is a failed init (e.g. the OpenAI secret missing in this region), its ' +
          'timeout or running out of memory: read the function log group.',
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
    ...modelAlarms(observed.routes),
    ...speechAlarms(observed.routes),
    ...tableAlarms(observed),
  ];
  return alarms;
}

/**
 * The highest p99 `latency` among the routes that run turns or chats: their latency is the turn
 * (a stream route's speech comes after it, in its own metrics). Not the stage's latency, whose p99
 * the speech routes and the streamed answers decide as much as the model.
 */
function slowestTurnRoute(routes: readonly ObservedRoute[]): IMetric {
  const turning = routesWhere(routes, (signals) => signals.turns || signals.chats);
  const usingMetrics = Object.fromEntries(
    turning.map((route, index) => [
      `l${index}`,
      jccMetric(JccMetric.latency, route, { statistic: 'p99' }),
    ]),
  );
  return new MathExpression({
    expression: `MAX([${Object.keys(usingMetrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(', ')}])`,
    usingMetrics,
    period: defaultPeriod,
    label: 'p99 turn latency, slowest route',
  });
}
