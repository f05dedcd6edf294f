/** The JSON Schema of the DateContext (api.md), for the OpenAPI document and the contract tests. */
const day = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
const instant = { type: 'string', format: 'date-time' } as const;

const object = (properties: Record<string, unknown>) =>
  ({
    type: 'object',
    required: Object.keys(properties),
    properties,
  }) as const;

const dateInfo = object({ date: day, utc_start_of_day: instant });
const dayInfo = object({ date: day, utc_start_of_day: instant, day: { type: 'string' } });
const listOf = (item: unknown) => ({ type: 'array', minItems: 1, items: item }) as const;
const terms = (names: readonly string[], value: unknown) =>
  object(Object.fromEntries(names.map((name) => [name, value])));

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

export const dateContextSchema = {
  ...object({
    current: object({
      date: day,
      date_iso: { ...instant, description: 'Local midnight of today, with the zone’s offset.' },
      time: { type: 'string', pattern: '^\\d{2}:\\d{2}:\\d{2}$' },
      datetime: { ...instant, description: 'Now, with the zone’s offset.' },
      weekday: { type: 'string' },
      weekday_number: {
        type: 'integer',
        minimum: 1,
        maximum: 7,
        description: 'ISO 8601: Monday 1 … Sunday 7.',
      },
      utc_start_of_day: instant,
    }),
    relative_dates: terms(
      ['tomorrow', 'yesterday', 'day_after_tomorrow', 'day_before_yesterday'],
      dateInfo,
    ),
    weekend: terms(['this_weekend', 'next_weekend', 'last_weekend'], listOf(dayInfo)),
    weeks: terms(['this_week', 'next_week', 'last_week'], listOf(dayInfo)),
    months: terms(['this_month', 'next_month', 'last_month'], listOf(dateInfo)),
    years: terms(['this_year', 'next_year', 'last_year'], listOf(dateInfo)),
    weekdays: terms(
      ['next', 'last'].flatMap((direction) => WEEKDAYS.map((name) => `${direction}_${name}`)),
      dateInfo,
    ),
    timezone: object({
      user_timezone: { type: 'string', description: 'The IANA zone the dates are in.' },
      current_timezone: { type: 'string', description: 'Its abbreviation now, e.g. EST.' },
      is_dst: { type: 'boolean' },
    }),
  }),
  description:
    'Calendar days in the node’s zone, resolved as resolve_relative_date resolves them. Weeks run ' +
    'Sunday to Saturday; this_weekend on a Sunday is that Sunday alone; months and years list ' +
    'every day. `utc_start_of_day` is the instant of the day’s local midnight (later when DST ' +
    'skips midnight).',
} as const;
