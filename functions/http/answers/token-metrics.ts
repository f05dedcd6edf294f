import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { TokenUsage } from '../../../shared/ports/language-model';

/**
 * The tokens a turn or a chat used, as metrics (`prompt_tokens`, `completion_tokens`,
 * `cached_tokens`): one set of names for both, so the dashboard sums them across routes.
 */
export function addTokenMetrics(usage: TokenUsage, metrics: Metrics): void {
  metrics.addMetric('prompt_tokens', MetricUnit.Count, usage.promptTokens);
  metrics.addMetric('completion_tokens', MetricUnit.Count, usage.completionTokens);
  metrics.addMetric('cached_tokens', MetricUnit.Count, usage.cachedTokens);
}

/** The same tokens for the log line (never the text they stand for). */
export const tokenLog = (usage: TokenUsage) => ({
  prompt: usage.promptTokens,
  completion: usage.completionTokens,
  cached: usage.cachedTokens,
});
