import type { ToolDefinition } from '../../chat-message';

/** The server tool's name, as the model calls it. */
export const RESOLVE_RELATIVE_DATE = 'resolve_relative_date';

/** The tool as the model sees it (OpenAI function format). */
export const resolveRelativeDateTool: ToolDefinition = {
  type: 'function',
  function: {
    name: RESOLVE_RELATIVE_DATE,
    description:
      "Turns a relative date or time into absolute ISO-8601 values in the user's time zone, " +
      'daylight saving time included. Call it before filling any date or datetime parameter the ' +
      'user expressed relatively (tomorrow, this weekend, tonight, in 20 minutes, next Friday at ' +
      '3pm). Returns `values` (ISO with offset: each day start, or the instant), `utcValues` (each ' +
      'day start or the instant in UTC, ready for datetime and array<datetime> parameters), and ' +
      '`start`/`end` for parts of a day such as tonight or tomorrow_morning.',
    parameters: {
      type: 'object',
      properties: {
        relative_term: {
          type: 'string',
          description:
            'A term such as today, now, tomorrow, yesterday, day_after_tomorrow, this_weekend, ' +
            'next_weekend, this_week, next_week, next_monday, last_friday, tonight, this_morning, ' +
            'tomorrow_evening, last_night, in_20_minutes, in_2_hours, in_3_days, or a short phrase ' +
            'such as "next Friday at 3pm" or "March 3rd".',
        },
      },
      required: ['relative_term'],
      additionalProperties: false,
    },
  },
};
