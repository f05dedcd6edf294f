import { GraphWidget, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import {
  JccMetric,
  jccMetric,
  statusMetricName,
  warmUpMetricName,
  warmUpOutcomes,
} from './jcc-metrics';
import type { DashboardRoute } from './route-signals';
import { speechRouteWidgets } from './speech-widgets';

/**
 * One row per route: answers by status (only the statuses it can answer), handler latency, the
 * model warm-up of the route that warms it, and the turn's work on the routes that run turns.
 */
export function routeRow(route: DashboardRoute, turnDeadlineMs: number): IWidget[] {
  const title = `${route.method} ${route.path}`;
  const sum = (metricName: string, label: string) =>
    jccMetric(metricName, route.name, { statistic: 'Sum', label });
  const answered = jccMetric(JccMetric.latency, route.name, {
    statistic: 'SampleCount',
    label: 'answered (2xx)',
  });
  const statuses = route.signals.statuses.map((status) =>
    sum(statusMetricName(status), String(status)),
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
  if (route.signals.warmsUp) {
    widgets.push(
      new GraphWidget({
        title: `${title}: model warm-up (failed, timed_out: the model is down before anyone speaks)`,
        left: warmUpOutcomes.map((outcome) => sum(warmUpMetricName(outcome), outcome)),
      }),
    );
  }
  widgets.push(...speechRouteWidgets(route, title));
  if (!route.signals.turns) return widgets;
  const perTurn = (metricName: string, label: string) =>
    jccMetric(metricName, route.name, { statistic: 'Average', label });
  return [
    ...widgets,
    new GraphWidget({
      title: `${title}: per turn (average)`,
      left: [
        perTurn(JccMetric.modelCalls, 'model calls'),
        perTurn(JccMetric.validationRetries, 'retries'),
        perTurn(JccMetric.parameterRepairs, 'repairs'),
        perTurn(JccMetric.parameterRepairsAllAttempts, 'repairs, every attempt'),
        perTurn(JccMetric.refinements, 'refinements'),
        perTurn(JccMetric.commandAnswers, 'answered by the commands'),
      ],
    }),
    new GraphWidget({
      title: `${title}: tokens per turn (average)`,
      left: [
        perTurn(JccMetric.promptTokens, 'prompt'),
        perTurn(JccMetric.cachedTokens, 'of it cached'),
        perTurn(JccMetric.completionTokens, 'completion'),
        perTurn(JccMetric.reasoningTokens, 'of it reasoning'),
      ],
    }),
    new GraphWidget({
      title: `${title}: how turns ended`,
      left: [
        sum(JccMetric.stopToolCalls, 'tool_calls'),
        sum(JccMetric.stopComplete, 'complete'),
        sum(JccMetric.stopValidationRequired, 'validation_required'),
        ...(route.signals.replays ? [sum(JccMetric.replayedRequests, 'replayed')] : []),
      ],
    }),
  ];
}
