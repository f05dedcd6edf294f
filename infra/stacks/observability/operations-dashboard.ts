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
import { ModelFailureMetric, statusMetricName, sumOverRoutes } from './jcc-metrics';
import type { DashboardRoute } from './route-signals';
import { routeRow } from './route-widgets';
import { speechRow } from './speech-widgets';

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
  'Per-route rows use the metrics the handlers emit (namespace `Jcc`, refusals counted on the route they were aimed at), ',
  'each row only what its route can emit. Not a metric: repairs per rule (the log query below counts the first repair of each turn).',
].join('\n');

/** `status_<code>` of every status in `statuses`, each summed over the routes that answer it. */
function statusesOverRoutes(routes: readonly DashboardRoute[], statuses: readonly number[]) {
  return statuses.flatMap((status) => {
    const answering = routes.filter((route) => route.signals.statuses.includes(status));
    if (answering.length === 0) return [];
    const names = answering.map((route) => route.name);
    const label = String(status);
    return [sumOverRoutes(statusMetricName(status), names, { idPrefix: `s${status}r`, label })];
  });
}

function apiRow(stage: Stage, routes: readonly DashboardRoute[], turnDeadlineMs: number) {
  const answered = [...new Set(routes.flatMap((route) => route.signals.statuses))].sort(
    (a, b) => a - b,
  );
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
      title: 'Refused (4xx) by status, all routes: 401 bad key, 429 rate limit, 413/415 body',
      left: statusesOverRoutes(
        routes,
        answered.filter((status) => status < 500),
      ),
    }),
    new GraphWidget({
      title:
        'Failed (5xx) by status, all routes: 500 a bug, 502 model, 503 store or no model, 504 deadline',
      left: statusesOverRoutes(
        routes,
        answered.filter((status) => status >= 500),
      ),
    }),
  ];
}

/** The model failures with a code of their own, each summed over the routes that answer them. */
function modelFailuresRow(routes: readonly DashboardRoute[]): IWidget[] {
  const names = routes.filter((route) => route.signals.modelFailures).map((route) => route.name);
  if (names.length === 0) return [];
  const lines = Object.values(ModelFailureMetric).map((metricName, index) =>
    sumOverRoutes(metricName, names, { idPrefix: `f${index}r`, label: metricName }),
  );
  return [
    new GraphWidget({
      title:
        'Model failures by fix, all routes: throttled (quota), credentials, IAM action, model access',
      left: lines,
      width: 12,
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
  dashboard.addWidgets(...apiRow(inputs.stage, inputs.routes, inputs.turnDeadlineMs));
  const modelFailures = modelFailuresRow(inputs.routes);
  if (modelFailures.length > 0) dashboard.addWidgets(...modelFailures);
  const speech = speechRow(inputs.routes);
  if (speech.length > 0) dashboard.addWidgets(...speech);
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
