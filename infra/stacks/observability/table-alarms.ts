import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { type AlarmSpec, atLeast, type ObservedResources } from './alarm-spec';
import { defaultPeriod } from './jcc-metrics';

/** The table's alarms: throttles, and AWS-side errors of every operation the functions use. */
export function tableAlarms(
  observed: Pick<ObservedResources, 'tableName' | 'tableOperations'>,
): AlarmSpec[] {
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
