import { App, Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { defaultDeploySettings } from '../../../infra/stacks/deploy-settings';

const { turnDeadlineMs } = defaultDeploySettings;

import { assertAlarmsFit, metricCount } from '../../../infra/stacks/observability/alarm-spec';
import { operationsAlarms } from '../../../infra/stacks/observability/operations-alarms';
import { routeSignals } from '../../../infra/stacks/observability/route-signals';
import { apiRoutes, functionLogicalId, voiceFunctions } from '../../../infra/stacks/voice-routes';
import { sharedJccApp } from '../shared-jcc-apps';

const synthesized = sharedJccApp('deployed');

const template = () => synthesized.statelessTemplate;
const alarms = () => template().findResources('AWS::CloudWatch::Alarm');
const alarmNamed = (id: string) => {
  const found = Object.values(alarms()).find((alarm) => alarm.Properties.AlarmName === `jcc-${id}`);
  if (found === undefined) throw new Error(`no alarm jcc-${id}`);
  return found.Properties;
};
const signalled = apiRoutes.map((route) => ({ ...route, signals: routeSignals(route) }));
const turnRoutes = signalled.filter((route) => route.signals.turns);

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
      'ModelWarmUpFailures',
      'ModelCredentialsRejected',
      'ModelAccessDenied',
      'ModelThrottled',
      'SpeechProviderErrors',
      'SpeechInRefused',
      'SpeechInThrottled',
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

  it('fire on the p99 turn latency of the slowest turn route, below the turn deadline', () => {
    // Prepare / Act
    const alarm = alarmNamed('ApiLatencyNearDeadline');
    const read = alarm.Metrics.filter(
      (query: { MetricStat?: unknown }) => query.MetricStat !== undefined,
    ).map(
      (query: { MetricStat: { Metric: { Dimensions: { Name: string; Value: string }[] } } }) => ({
        ...query.MetricStat,
        route: query.MetricStat.Metric.Dimensions.find((dimension) => dimension.Name === 'route')
          ?.Value,
      }),
    );

    // Assess: the turns' own latency (not the stage's, which speech and streamed answers decide
    // as much as the model), on every route that runs a turn or a chat and no other.
    expect(read.map((metric: { route?: string }) => metric.route).sort()).toEqual(
      signalled
        .filter((route) => route.signals.turns || route.signals.chats)
        .map((route) => route.name)
        .sort(),
    );
    for (const metric of read) {
      expect(metric).toMatchObject({ Stat: 'p99', Metric: { MetricName: 'latency' } });
    }
    expect(alarm.Metrics.find((query: { Expression?: string }) => query.Expression)).toMatchObject({
      Expression: expect.stringMatching(/^MAX\(\[/),
    });
    expect(alarm.Threshold).toBeLessThan(turnDeadlineMs);
    expect(alarm.Threshold).toBeGreaterThan(turnDeadlineMs * 0.8);
  });

  it.each([
    ['ModelFailures', 502],
    ['TurnTimeouts', 504],
  ])(
    '%s counts our own status_%i on every model route that answers it, not speech’s',
    (id, status) => {
      // Prepare / Act
      const routes = alarmNamed(id)
        .Metrics.filter((query: { MetricStat?: unknown }) => query.MetricStat !== undefined)
        .map(
          (query: { MetricStat: { Metric: Record<string, unknown> } }) => query.MetricStat.Metric,
        );

      // Assess
      expect(routes).toEqual(
        signalled
          .filter((route) => route.signals.turns || route.signals.chats)
          .filter((route) => route.signals.statuses.includes(status))
          .map((route) => ({
            Namespace: 'Jcc',
            MetricName: `status_${status}`,
            Dimensions: expect.arrayContaining([
              { Name: 'service', Value: 'jcc' },
              { Name: 'route', Value: route.name },
            ]),
          })),
      );
    },
  );

  it('ValidationRequiredSpike reads the routes that run turns: not chat, not conversation/start', () => {
    // Prepare / Act
    const routes = alarmNamed('ValidationRequiredSpike')
      .Metrics.filter((query: { MetricStat?: unknown }) => query.MetricStat !== undefined)
      .map(
        (query: { MetricStat: { Metric: { Dimensions: { Name: string; Value: unknown }[] } } }) =>
          query.MetricStat.Metric.Dimensions.find((dimension) => dimension.Name === 'route')?.Value,
      );

    // Assess
    expect(new Set(routes)).toEqual(new Set(turnRoutes.map((route) => route.name)));
    // conversation/start warms the model up but ends no turn: it never emits their counts.
    expect(routes).not.toContain('chat');
    expect(routes).not.toContain('conversation-start');
  });

  it('SpeechProviderErrors reads every route that hears or speaks, and only those', () => {
    // Prepare / Act
    const routes: string[] = alarmNamed('SpeechProviderErrors')
      .Metrics.filter((query: { MetricStat?: unknown }) => query.MetricStat !== undefined)
      .map((query: { MetricStat: { Metric: { MetricName: string; Dimensions: unknown[] } } }) =>
        [
          query.MetricStat.Metric.MetricName,
          JSON.stringify(query.MetricStat.Metric.Dimensions),
        ].join(' '),
      );

    // Assess
    const speaking = signalled.filter((route) => route.signals.hears || route.signals.speaks);
    expect(speaking.map((route) => route.name).sort()).toEqual([
      'media-speak',
      'media-speak-stream',
      'media-transcribe',
      'voice-command-continue-stream',
      'voice-command-stream',
    ]);
    expect(routes).toHaveLength(speaking.length);
    for (const route of speaking) {
      expect(
        routes.some(
          (line) => line.includes('speech_provider_errors') && line.includes(`"${route.name}"`),
        ),
      ).toBe(true);
    }
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
    const manyRoutes = Array.from({ length: 6 }, (_, index) => ({
      name: `route-${index}`,
      signals: { ...routeSignals({ name: 'other', requestBody: null }), turns: true },
    }));
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
      routes: manyRoutes,
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

  it('counts the refusals of every route, the per-node rate limit (429) among them', () => {
    expect(body()).toContain('Refused (4xx) by status, all routes');
    for (const status of [401, 413, 415, 429]) {
      expect(body()).toContain(`\\"status_${status}\\"`);
    }
  });

  it.each(turnRoutes)('shows model calls and retries per turn for $name', (route) => {
    expect(body()).toContain(`${route.method} ${route.path}: per turn (average)`);
  });

  it('shows what speech costs and how soon the node hears it, and the chat turns', () => {
    for (const title of [
      'Speech, all routes: what the providers bill',
      'Speech, all routes: provider errors and answers sent as JSON instead',
      'Time to first audio byte p50, by route',
      'Chat turns, all chat routes',
      'POST /api/v0/media/whisper/transcribe: speech',
      'POST /api/v0/voice/command/stream: time to first audio byte',
    ]) {
      expect(body()).toContain(title);
    }
    for (const metric of [
      'audio_seconds_transcribed',
      'characters_synthesized',
      'time_to_first_audio_byte',
      'speech_fallbacks',
      'chat_cut_off',
    ]) {
      expect(body()).toContain(`\\"${metric}\\"`);
    }
  });

  it('shows the model warm-up of conversation/start', () => {
    expect(body()).toContain('/api/v0/conversation/start: model warm-up');
  });
});
