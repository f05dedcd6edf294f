import type { ModelReply, RawToolCall } from '../../shared/ports/language-model';

/** A model reply: text, tool calls, or both, with the finish reason a real server would give. */
export const reply = (
  content: string | null,
  toolCalls: readonly RawToolCall[] = [],
): ModelReply => ({
  content,
  toolCalls,
  finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
});

/** A native tool call; an object `args` is sent as the JSON string the API specifies. */
export const toolCall = (
  name: string,
  args: unknown,
  id: string | null = `model_${name}`,
): RawToolCall => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

/** What a cooperative model sends for "the forecast for Los Angeles tomorrow" (in New York time). */
export const WEATHER_ARGUMENTS = {
  city: 'Los Angeles',
  resolved_datetimes: ['2026-01-17T05:00:00Z'],
} as const;

export const WEATHER_JSON = JSON.stringify(WEATHER_ARGUMENTS);

/** The corrected call a model sends once the retry message told it what was wrong. */
export const fixedWeatherCall = (): ModelReply =>
  reply(null, [toolCall('get_weather', WEATHER_ARGUMENTS, 'call_fixed')]);
