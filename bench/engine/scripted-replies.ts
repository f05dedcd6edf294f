import type { ModelReply } from '../../shared/ports/language-model';
// The same reply builders the step tests use, so the benchmark scripts the model the same way.
import { reply, call as toolCall } from '../../test/support/engine-fixtures';

export { reply, toolCall };

/** What a cooperative model sends for "the forecast for Los Angeles tomorrow" (in New York time). */
export const WEATHER_ARGUMENTS = {
  city: 'Los Angeles',
  resolved_datetimes: ['2026-01-17T05:00:00Z'],
} as const;

export const WEATHER_JSON = JSON.stringify(WEATHER_ARGUMENTS);

/** The corrected call a model sends once the retry message told it what was wrong. */
export const fixedWeatherCall = (): ModelReply =>
  reply(null, [toolCall('get_weather', WEATHER_ARGUMENTS, 'call_fixed')]);
