import type { Template } from 'aws-cdk-lib/assertions';

/**
 * One CloudWatch metric line: a namespace, a metric name and its dimensions, written
 * `Jcc status_401 route=date-context,service=jcc` (dimensions sorted by name), the unit both
 * sides are compared in.
 */
export type MetricLine = string;

export const metricLine = (
  namespace: string,
  name: string,
  dimensions: Readonly<Record<string, string>>,
): MetricLine => {
  const sorted = Object.entries(dimensions)
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([key, value]) => `${key}=${value}`);
  return `${namespace} ${name} ${sorted.join(',')}`;
};

interface EmfDirective {
  readonly Namespace: string;
  readonly Dimensions: readonly (readonly string[])[];
  readonly Metrics: readonly { readonly Name: string }[];
}

/** The metric lines of the embedded-metric-format objects Powertools printed in `output`. */
export function emittedLines(output: readonly string[]): Set<MetricLine> {
  const lines = new Set<MetricLine>();
  for (const text of output.join('').split('\n')) {
    if (!text.startsWith('{"_aws"')) continue;
    const emf = JSON.parse(text) as { _aws: { CloudWatchMetrics: EmfDirective[] } } & Record<
      string,
      unknown
    >;
    for (const directive of emf._aws.CloudWatchMetrics) {
      for (const names of directive.Dimensions) {
        const dimensions = Object.fromEntries(names.map((name) => [name, String(emf[name])]));
        for (const metric of directive.Metrics) {
          lines.add(metricLine(directive.Namespace, metric.Name, dimensions));
        }
      }
    }
  }
  return lines;
}

type Dimension = { readonly Name: string; readonly Value: unknown };
interface CfnMetric {
  readonly Namespace: string;
  readonly MetricName: string;
  readonly Dimensions?: readonly Dimension[];
}

const fromCfn = (metric: CfnMetric): MetricLine =>
  metricLine(
    metric.Namespace,
    metric.MetricName,
    Object.fromEntries((metric.Dimensions ?? []).map((d) => [d.Name, String(d.Value)])),
  );

/** Every metric line the alarms of `template` read, by alarm name. */
export function alarmLines(template: Template): Map<string, Set<MetricLine>> {
  const byAlarm = new Map<string, Set<MetricLine>>();
  for (const alarm of Object.values(template.findResources('AWS::CloudWatch::Alarm'))) {
    const properties = alarm.Properties as CfnMetric & {
      AlarmName: string;
      Metrics?: { MetricStat?: { Metric: CfnMetric } }[];
    };
    const metrics =
      properties.Metrics === undefined
        ? [properties]
        : properties.Metrics.flatMap((query) => query.MetricStat?.Metric ?? []);
    byAlarm.set(properties.AlarmName, new Set(metrics.map(fromCfn)));
  }
  return byAlarm;
}

/**
 * Every metric line the dashboard of `template` draws, by widget title. The body is a
 * `Fn::Join` of text and tokens (region, function names); the tokens become `TOKEN`.
 */
export function dashboardLines(template: Template): Map<string, Set<MetricLine>> {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  const body: unknown = dashboard?.Properties.DashboardBody;
  const text =
    typeof body === 'string'
      ? body
      : (body as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1]
          .map((part) => (typeof part === 'string' ? part : 'TOKEN'))
          .join('');
  const widgets = (JSON.parse(text) as { widgets: { properties: WidgetProperties }[] }).widgets;
  const byWidget = new Map<string, Set<MetricLine>>();
  for (const { properties } of widgets) {
    const lines = (properties.metrics ?? []).flatMap((entry) => {
      const [namespace, name, ...rest] = entry;
      if (typeof namespace !== 'string' || typeof name !== 'string') return [];
      const pairs = rest.filter((item): item is string => typeof item === 'string');
      const dimensions: Record<string, string> = {};
      for (let index = 0; index + 1 < pairs.length; index += 2) {
        dimensions[pairs[index] as string] = pairs[index + 1] as string;
      }
      return [metricLine(namespace, name, dimensions)];
    });
    byWidget.set(properties.title ?? '(untitled)', new Set(lines));
  }
  return byWidget;
}

interface WidgetProperties {
  readonly title?: string;
  readonly metrics?: readonly (readonly unknown[])[];
}
