import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { defaultDeploySettings } from '../../../infra/stacks/deploy-settings';

const { turnDeadlineMs } = defaultDeploySettings;

import { JccMetric } from '../../../infra/stacks/observability/jcc-metrics';
import {
  assertAlarmsFit,
  metricCount,
  operationsAlarms,
} from '../../../infra/stacks/observability/operations-alarms';
import {
  apiRoutes,
  functionLogicalId,
  repositoryRoot,
  voiceFunctions,
} from '../../../infra/stacks/voice-routes';
import { sharedJccApp } from '../shared-jcc-apps';

const synthesized = sharedJccApp('deployed');

const template = () => synthesized.statelessTemplate;
const alarms = () => template().findResources('AWS::CloudWatch::Alarm');
const alarmNamed = (id: string) => {
  const found = Object.values(alarms()).find((alarm) => alarm.Properties.AlarmName === `jcc-${id}`);
  if (found === undefined) throw new Error(`no alarm jcc-${id}`);
  return found.Properties;
};
const modelRoutes = apiRoutes.filter((route) => route.function.callsModel);

describe('tracing', () => {
  it('is active on the API stage, so each request has one trace from gateway to function', () => {
    template().hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
  });

  it.each(voiceFunctions)('is active on the $name function', (fn) => {
    // Prepare
    const resource = template().findResources('AWS::Lambda::Function')[functionLogicalId(fn)];

    // Act / Assess
    expect(resource?.Properties.TracingConfig).toEqual({ Mode: 'Active' });
  });
});

describe('the alarms', () => {
  it('cover the API, every function of the route table, the model and the table', () => {
    // Prepare
    const expected = [
      'ApiServerErrorRate',
      'ApiLatencyNearDeadline',
      ...voiceFunctions.flatMap((fn) => [`${fn.id}Errors`, `${fn.id}Throttles`]),
      'ModelFailures',
      'TurnTimeouts',
      'ValidationRequiredSpike',
      'TableThrottles',
      'TableSystemErrors',
    ];

    // Act
    const names = Object.values(alarms()).map((alarm) => alarm.Properties.AlarmName);

    // Assess
    expect(names.sort()).toEqual(expected.map((id) => `jcc-${id}`).sort());
  });

  it('each say why they matter, notify the topic on alarm and on recovery, and let silence be', () => {
    // Prepare
    const topicId = Object.keys(template().findResources('AWS::SNS::Topic'))[0];

    // Act
    const properties = Object.values(alarms()).map((alarm) => alarm.Properties);

    // Assess
    for (const alarm of properties) {
      expect(alarm.AlarmDescription.length, alarm.AlarmName).toBeGreaterThan(80);
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
      expect(alarm.TreatMissingData).toBe('notBreaching');
    }
  });

  it('fire on p99 latency below the turn deadline, not after it', () => {
    // Prepare / Act
    const alarm = alarmNamed('ApiLatencyNearDeadline');

    // Assess
    expect(alarm).toMatchObject({ ExtendedStatistic: 'p99', MetricName: 'Latency' });
    expect(alarm.Threshold).toBeLessThan(turnDeadlineMs);
    expect(alarm.Threshold).toBeGreaterThan(turnDeadlineMs * 0.8);
  });

  it.each([
    ['ModelFailures', 'status_502'],
    ['TurnTimeouts', 'status_504'],
  ])('%s counts our own %s on every route that calls the model', (id, metricName) => {
    // Prepare / Act
    const routes = alarmNamed(id)
      .Metrics.filter((query: { MetricStat?: unknown }) => query.MetricStat !== undefined)
      .map((query: { MetricStat: { Metric: Record<string, unknown> } }) => query.MetricStat.Metric);

    // Assess
    expect(routes).toEqual(
      modelRoutes.map((route) => ({
        Namespace: 'Jcc',
        MetricName: metricName,
        Dimensions: expect.arrayContaining([
          { Name: 'service', Value: 'jcc' },
          { Name: 'route', Value: route.name },
        ]),
      })),
    );
  });

  it('ValidationRequiredSpike reads the routes that run conversation turns, not chat', () => {
    // Prepare / Act
    const routes = alarmNamed('ValidationRequiredSpike')
      .Metrics.filter((query: { MetricStat?: unknown }) => query.MetricStat !== undefined)
      .map(
        (query: { MetricStat: { Metric: { Dimensions: { Name: string; Value: unknown }[] } } }) =>
          query.MetricStat.Metric.Dimensions.find((dimension) => dimension.Name === 'route')?.Value,
      );

    // Assess
    const turnRoutes = apiRoutes
      .filter((route) => route.function.callsModel && route.changesConversation)
      .map((route) => route.name);
    expect(new Set(routes)).toEqual(new Set(turnRoutes));
    expect(routes).not.toContain('chat');
  });

  it('watch DynamoDB system errors for every operation the functions may call', () => {
    // Prepare / Act
    const operations = alarmNamed('TableSystemErrors')
      .Metrics.filter((query: { MetricStat?: unknown }) => query.MetricStat !== undefined)
      .map(
        (query: { MetricStat: { Metric: { Dimensions: { Name: string; Value: unknown }[] } } }) =>
          query.MetricStat.Metric.Dimensions.find((dimension) => dimension.Name === 'Operation')
            ?.Value,
      );

    // Assess
    expect(operations).toEqual(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']);
  });

  it('refuse to synthesize an alarm reading more metrics than CloudWatch allows', () => {
    // Prepare
    const stack = new Stack(new App(), 'Alarms');
    const api = new RestApi(stack, 'Api');
    api.root.addMethod('GET');
    const manyRoutes = Array.from({ length: 6 }, (_, index) => `route-${index}`);
    const specs = operationsAlarms({
      stage: api.deploymentStage,
      functions: [
        {
          id: 'Fn',
          function: new LambdaFunction(stack, 'Fn', {
            runtime: Runtime.NODEJS_24_X,
            handler: 'index.handler',
            code: Code.fromInline('export const handler = () => {};'),
          }),
        },
      ],
      modelRoutes: manyRoutes,
      turnRoutes: manyRoutes,
      tableName: 'table',
      tableOperations: ['GetItem'],
      turnDeadlineMs,
    });

    // Act
    const spike = specs.find((spec) => spec.id === 'ValidationRequiredSpike');

    // Assess
    expect(spike && metricCount(spike.metric)).toBe(12);
    expect(() => assertAlarmsFit(specs)).toThrow(/ValidationRequiredSpike reads 12 metrics/);
  });
});

describe('the alarm topic', () => {
  it('accepts only TLS publishers and has no subscriber unless alarmEmail is set', () => {
    template().resourceCountIs('AWS::SNS::Topic', 1);
    template().resourceCountIs('AWS::SNS::Subscription', 0);
    template().hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('is a stable output, as is the dashboard', () => {
    template().hasOutput('AlarmTopicArn', {});
    template().hasOutput('DashboardName', {});
  });
});

describe('the dashboard', () => {
  const body = () => {
    const dashboards = Object.values(template().findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    return JSON.stringify(dashboards[0]?.Properties.DashboardBody);
  };

  it.each(apiRoutes)('has a row for $method $path', (route) => {
    expect(body()).toContain(`${route.method} ${route.path}: requests by status`);
    expect(body()).toContain(`\\"route\\",\\"${route.name}\\"`);
  });

  it('counts the refusals of the edge, the per-node rate limit (429) among them', () => {
    expect(body()).toContain('Rejected at the edge');
    for (const status of [401, 413, 415, 429]) {
      expect(body()).toContain(`\\"status_${status}\\"`);
    }
  });

  it.each(modelRoutes)('shows model calls and retries per turn for $name', (route) => {
    expect(body()).toContain(`${route.method} ${route.path}: per turn (average)`);
  });
});

describe('the metrics the dashboard and alarms read', () => {
  const sources = () =>
    readdirSync(join(repositoryRoot, 'functions', 'http'))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(repositoryRoot, 'functions', 'http', file), 'utf8'))
      .join('\n');

  it.each(Object.values(JccMetric).filter((name) => !name.startsWith('stop_')))(
    '%s is still emitted by the handlers',
    (name) => {
      expect(sources()).toContain(`'${name}'`);
    },
  );

  it('stop_<reason> and status_<code> are still emitted by the handlers', () => {
    expect(sources()).toMatch(/`stop_\$\{outcome\.stopReason\}`/);
    expect(sources()).toMatch(/`status_\$\{mapped\.statusCode\}`/);
  });
});
