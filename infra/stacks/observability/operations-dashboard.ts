import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IWidget,
  LogQueryWidget,
  Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { edgeStatuses, errorStatuses, JccMetric, jccMetric, statusMetricName } from './jcc-metrics';

export interface DashboardRoute {
  /** The route table's name: the `route` dimension of our metrics. */
  readonly name: string;
  readonly method: string;
  readonly path: string;
  /** Served by a function that calls the model: it has turns to show. */
  readonly callsModel: boolean;
  /**
   * Runs a conversation's turns (calls the model and may write the conversation): its answers may
   * end in validation_required. Not `chat`, whose one model call belongs to no conversation.
   */
  readonly endsTurns: boolean;
}

/** A deployed function of the route table, as the dashboard and the alarms watch it. */
export interface WatchedFunction {
  readonly id: string;
  readonly function: IFunction;
  readonly logGroup: ILogGroup;
  readonly callsModel: boolean;
}

export interface DashboardInputs {
  readonly stage: Stage;
  readonly routes: readonly DashboardRoute[];
  readonly functions: readonly WatchedFunction[];
  readonly tableName: string;
  readonly tableOperations: readonly string[];
  readonly turnDeadlineMs: number;
  readonly alarms: readonly IAlarm[];
}

const intro = [
  '# Jarvis Command Center',
  'Alarms notify the SNS topic `JccStateless` outputs as `AlarmTopicArn` (docs/deploy.md, "Alarms and dashboard").',
  'Per-route rows use the metrics the handlers emit (namespace `Jcc`). Not available as metrics yet: ',
  'repairs per rule (the log query below counts the first repair of each turn) and tokens per turn.',
].join('\n');

/** One row per route: answers by status, handler latency, and (model routes) the turn's work. */
function routeRow(route: DashboardRoute, turnDeadlineMs: number): IWidget[] {
  const title = `${route.method} ${route.path}`;
  const answered = jccMetric(JccMetric.latency, route.name, {
    statistic: 'SampleCount',
    label: 'answered (2xx)',
  });
  const statuses = errorStatuses.map((status) =>
    jccMetric(statusMetricName(status), route.name, { statistic: 'Sum', label: String(status) }),
  );
  const widgets: IWidget[] = [
    new GraphWidget({ title: `${title}: requests by status`, left: [answered, ...statuses] }),
    new GraphWidget({
      title: `${title}: latency (handler)`,
      left: ['p50', 'p90', 'p99'].map((statistic) =>
        jccMetric(JccMetric.latency, route.name, { statistic, label: statistic }),
      ),
      leftAnnotations: [{ value: turnDeadlineMs, label: 'turn deadline' }],
    }),
  ];
  if (!route.callsModel) return widgets;
  const perTurn = (metricName: string, label: string) =>
    jccMetric(metricName, route.name, { statistic: 'Average', label });
  const turns = (metricName: string, label: string) =>
    jccMetric(metricName, route.name, { statistic: 'Sum', label });
  return [
    ...widgets,
    new GraphWidget({
      title: `${title}: per turn (average)`,
      left: [
        perTurn(JccMetric.modelCalls, 'model calls'),
        perTurn(JccMetric.validationRetries, 'retries'),
        perTurn(JccMetric.parameterRepairs, 'repairs'),
        perTurn(JccMetric.refinements, 'refinements'),
      ],
    }),
    new GraphWidget({
      title: `${title}: tokens per turn (average)`,
      left: [
        perTurn(JccMetric.promptTokens, 'prompt'),
        perTurn(JccMetric.cachedTokens, 'of it cached'),
        perTurn(JccMetric.completionTokens, 'completion'),
      ],
    }),
    new GraphWidget({
      title: `${title}: how turns ended`,
      left: [
        turns(JccMetric.stopToolCalls, 'tool_calls'),
        turns(JccMetric.stopComplete, 'complete'),
        turns(JccMetric.stopValidationRequired, 'validation_required'),
        turns(JccMetric.replayedRequests, 'replayed'),
      ],
    }),
  ];
}

function apiRow(stage: Stage, turnDeadlineMs: number): IWidget[] {
  return [
    new GraphWidget({
      title: 'API: requests and errors',
      left: [
        stage.metricCount({ statistic: 'Sum', label: 'requests' }),
        stage.metricClientError({ statistic: 'Sum', label: '4xx' }),
        stage.metricServerError({ statistic: 'Sum', label: '5xx' }),
      ],
    }),
    new GraphWidget({
      title: 'API: latency',
      left: ['p50', 'p90', 'p99'].map((statistic) =>
        stage.metricLatency({ statistic, label: statistic }),
      ),
      leftAnnotations: [
        { value: turnDeadlineMs, label: 'turn deadline' },
        { value: 29_000, label: 'API Gateway limit' },
      ],
    }),
    new GraphWidget({
      title: 'Rejected at the edge (no route: bad key, rate limit or body)',
      left: edgeStatuses.map((status) =>
        jccMetric(statusMetricName(status), null, { statistic: 'Sum', label: String(status) }),
      ),
    }),
  ];
}

function functionsRow(functions: DashboardInputs['functions']): IWidget[] {
  const each = (make: (fn: IFunction) => Metric, suffix: string) =>
    functions.flatMap((fn) => make(fn.function).with({ label: `${fn.id} ${suffix}` }));
  return [
    new GraphWidget({
      title: 'Lambda: errors and throttles',
      left: [
        ...each((fn) => fn.metricErrors({ statistic: 'Sum' }), 'errors'),
        ...each((fn) => fn.metricThrottles({ statistic: 'Sum' }), 'throttles'),
      ],
    }),
    new GraphWidget({
      title: 'Lambda: duration p99',
      left: each((fn) => fn.metricDuration({ statistic: 'p99' }), 'p99'),
    }),
    new GraphWidget({
      title: 'Lambda: concurrent executions',
      left: each((fn) => fn.metric('ConcurrentExecutions', { statistic: 'Maximum' }), 'max'),
    }),
  ];
}

function tableRow(tableName: string, operations: readonly string[]): IWidget[] {
  const dynamoDb = (metricName: string, statistic: string, label: string, operation?: string) =>
    new Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap: { TableName: tableName, ...(operation ? { Operation: operation } : {}) },
      statistic,
      label,
    });
  return [
    new GraphWidget({
      title: 'DynamoDB: throttles and system errors',
      left: [
        dynamoDb('ReadThrottleEvents', 'Sum', 'read throttles'),
        dynamoDb('WriteThrottleEvents', 'Sum', 'write throttles'),
        ...operations.map((op) => dynamoDb('SystemErrors', 'Sum', `${op} system errors`, op)),
      ],
    }),
    new GraphWidget({
      title: 'DynamoDB: latency p99 by operation',
      left: operations.map((op) => dynamoDb('SuccessfulRequestLatency', 'p99', `${op} p99`, op)),
    }),
  ];
}

/** The logged turn lists repairs as `command.parameter:rule`; the first one's rule is counted. */
const repairsByRuleQuery = [
  'filter message = "turn finished"',
  'parse @message /"repairs":\\["[^"]*:(?<rule>[^":]+)"/',
  'filter ispresent(rule)',
  'stats count(*) as turns by rule',
  'sort turns desc',
];

/** The one dashboard: alarms, the API, every route of the table, the functions, the table. */
export function operationsDashboard(scope: Construct, id: string, inputs: DashboardInputs) {
  const modelLogs = inputs.functions.filter((fn) => fn.callsModel).map((fn) => fn.logGroup);
  const dashboard = new Dashboard(scope, id, { dashboardName: 'jcc-operations' });
  dashboard.addWidgets(
    new TextWidget({ markdown: intro, width: 12, height: 4 }),
    new AlarmStatusWidget({ title: 'Alarms', alarms: [...inputs.alarms], width: 12, height: 4 }),
  );
  dashboard.addWidgets(...apiRow(inputs.stage, inputs.turnDeadlineMs));
  for (const route of inputs.routes) {
    dashboard.addWidgets(...routeRow(route, inputs.turnDeadlineMs));
  }
  dashboard.addWidgets(...functionsRow(inputs.functions));
  dashboard.addWidgets(...tableRow(inputs.tableName, inputs.tableOperations));
  if (modelLogs.length > 0) {
    dashboard.addWidgets(
      new LogQueryWidget({
        title: 'Repairs by rule (first repair of each turn, from the logs)',
        logGroupNames: modelLogs.map((logGroup) => logGroup.logGroupName),
        queryLines: repairsByRuleQuery,
        width: 12,
      }),
    );
  }
  return dashboard;
}
