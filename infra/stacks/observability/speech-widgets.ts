import { GraphWidget, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import {
  chatCutOff,
  JccMetric,
  jccMetric,
  SpeechFailureMetric,
  SpeechMetric,
  sumOverRoutes,
} from './jcc-metrics';
import type { DashboardRoute, RouteSignals } from './route-signals';

const named = (routes: readonly DashboardRoute[], test: (signals: RouteSignals) => boolean) =>
  routes.filter((route) => test(route.signals)).map((route) => route.name);

/** `metricName` summed over `routes` under `label`; nothing when no route emits it. */
function total(metricName: string, routes: readonly string[], label: string, statistic = 'Sum') {
  if (routes.length === 0) return [];
  const idPrefix = `${metricName.replaceAll('_', '')}r`;
  return [sumOverRoutes(metricName, routes, { idPrefix, label, statistic })];
}

/**
 * The speech and chat row: what the providers bill (seconds heard, characters spoken), how soon
 * the node hears its answer, what failed (Transcribe's refusals by fix), and the chat turns. Empty when no route speaks, hears or
 * chats.
 */
export function speechRow(routes: readonly DashboardRoute[]): IWidget[] {
  const hearing = named(routes, (signals) => signals.hears);
  const speaking = named(routes, (signals) => signals.speaks);
  const streaming = named(routes, (signals) => signals.streamsSpeech);
  const either = named(routes, (signals) => signals.hears || signals.speaks);
  const falling = named(routes, (signals) => signals.fallsBack);
  const chatting = named(routes, (signals) => signals.chats);
  const widgets: IWidget[] = [];
  if (either.length > 0) {
    widgets.push(
      new GraphWidget({
        title: 'Speech, all routes: what the providers bill',
        left: total(SpeechMetric.charactersSynthesized, speaking, 'characters synthesized'),
        right: total(SpeechMetric.audioSecondsTranscribed, hearing, 'audio seconds transcribed'),
      }),
      new GraphWidget({
        title: 'Speech, all routes: provider errors and answers sent as JSON instead',
        left: [
          ...total(SpeechMetric.providerErrors, either, 'provider errors'),
          ...total(SpeechMetric.fallbacks, falling, 'fell back to JSON'),
        ],
      }),
    );
  }
  const refused = named(routes, (signals) => signals.speechRefusals);
  if (refused.length > 0) {
    widgets.push(
      new GraphWidget({
        title: 'Speech in refused by Amazon Transcribe, by fix: credentials, IAM action, quota',
        left: Object.values(SpeechFailureMetric).flatMap((metricName) =>
          total(metricName, refused, metricName),
        ),
      }),
    );
  }
  if (streaming.length > 0) {
    widgets.push(
      new GraphWidget({
        title: 'Time to first audio byte p50, by route (from asking the synthesizer)',
        left: streaming.map((route) =>
          jccMetric(SpeechMetric.timeToFirstAudioByte, route, { statistic: 'p50', label: route }),
        ),
      }),
    );
  }
  if (chatting.length > 0) {
    widgets.push(
      new GraphWidget({
        title: 'Chat turns, all chat routes (routines, alerts), and replies cut off',
        left: [
          ...total(JccMetric.modelCalls, chatting, 'chat turns', 'SampleCount'),
          ...total(chatCutOff, chatting, 'cut off at the token limit'),
        ],
      }),
    );
  }
  return widgets;
}

/** A speaking, hearing or chatting route's own graphs, after its status and latency. */
export function speechRouteWidgets(route: DashboardRoute, title: string): IWidget[] {
  const { signals } = route;
  const metric = (name: string, label: string, statistic = 'Sum'): IMetric =>
    jccMetric(name, route.name, { statistic, label });
  const widgets: IWidget[] = [];
  if (signals.hears || signals.speaks) {
    widgets.push(
      new GraphWidget({
        title: `${title}: speech`,
        left: [
          ...(signals.speaks ? [metric(SpeechMetric.charactersSynthesized, 'characters')] : []),
          ...(signals.hears ? [metric(SpeechMetric.audioSecondsTranscribed, 'seconds heard')] : []),
          metric(SpeechMetric.providerErrors, 'provider errors'),
          ...(signals.fallsBack ? [metric(SpeechMetric.fallbacks, 'fell back to JSON')] : []),
        ],
      }),
    );
  }
  if (signals.streamsSpeech) {
    widgets.push(
      new GraphWidget({
        title: `${title}: time to first audio byte`,
        left: ['p50', 'p90', 'p99'].map((statistic) =>
          metric(SpeechMetric.timeToFirstAudioByte, statistic, statistic),
        ),
      }),
    );
  }
  if (signals.chats) {
    widgets.push(
      new GraphWidget({
        title: `${title}: chats, cut-offs and tokens per chat`,
        left: [metric(JccMetric.modelCalls, 'chats', 'SampleCount'), metric(chatCutOff, 'cut off')],
        right: [
          metric(JccMetric.promptTokens, 'prompt tokens (average)', 'Average'),
          metric(JccMetric.completionTokens, 'completion tokens (average)', 'Average'),
          metric(JccMetric.cachedTokens, 'cached tokens (average)', 'Average'),
        ],
      }),
    );
  }
  return widgets;
}
