import { Ajv } from 'ajv';

/**
 * The response models of the node software in the field (jarvis-node-setup), as JSON Schema: what
 * a strict client requires, written from api.md and independent of our own response schemas, so
 * a laxer schema of ours cannot hide a response a node would reject. Like pydantic, it ignores
 * extra fields and lets `Optional[...]` fields be null or absent.
 */
const text = { type: 'string' } as const;
const object = (required: Record<string, unknown>, optional: Record<string, unknown> = {}) => ({
  type: 'object',
  required: Object.keys(required),
  properties: { ...required, ...optional },
});
const nullable = (schema: Record<string, unknown>) => ({ anyOf: [{ type: 'null' }, schema] });

const toolCall = object(
  { id: text, function: object({ name: text, arguments: text }) },
  { type: text, failure_message: nullable(text) },
);
const validationRequest = object(
  { question: text, parameter_name: text, tool_call_id: text },
  { options: nullable({ type: 'array', items: text }) },
);

/** ToolCallingResponse with RequestInformationResponse (`voice_command: str` is required). */
export const toolCallingResponseModel = object(
  {},
  {
    commands: { type: 'array' },
    request_information: nullable(object({ voice_command: text, conversation_id: text })),
    stop_reason: nullable(text),
    assistant_message: nullable(text),
    tool_calls: nullable({ type: 'array', items: toolCall }),
    validation_request: nullable(validationRequest),
  },
);

const dateInfo = object({ date: text, utc_start_of_day: text });
const dayInfo = object({ date: text, utc_start_of_day: text, day: text });
const each = (names: readonly string[], schema: unknown) =>
  object(Object.fromEntries(names.map((name) => [name, schema])));
const listOf = (schema: unknown) => ({ type: 'array', items: schema });
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** DateContext, every field required. */
export const dateContextModel = object({
  current: object({
    date: text,
    date_iso: text,
    time: text,
    datetime: text,
    weekday: text,
    weekday_number: { type: 'integer' },
    utc_start_of_day: text,
  }),
  relative_dates: each(
    ['tomorrow', 'yesterday', 'day_after_tomorrow', 'day_before_yesterday'],
    dateInfo,
  ),
  weekend: each(['this_weekend', 'next_weekend', 'last_weekend'], listOf(dayInfo)),
  weeks: each(['this_week', 'next_week', 'last_week'], listOf(dayInfo)),
  months: each(['this_month', 'next_month', 'last_month'], listOf(dateInfo)),
  years: each(['this_year', 'next_year', 'last_year'], listOf(dateInfo)),
  weekdays: each(
    ['next', 'last'].flatMap((direction) => WEEKDAYS.map((day) => `${direction}_${day}`)),
    dateInfo,
  ),
  timezone: object({ user_timezone: text, current_timezone: text, is_dst: { type: 'boolean' } }),
});

/** `{"text": "..."}` of voice/acknowledge (the node reads `.get("text")`). */
export const acknowledgementModel = object({ text: text });

/** `{"text": "..."}` of wake-response (the node calls `.get("text", "").strip()`: a string). */
export const wakeResponseModel = object({ text: text });

/**
 * The chat completion as `chat_text` reads it: `response["choices"][0]["message"]["content"]`,
 * a string it returns to routines and alerts (which call `re.sub` and `.strip()` on it).
 */
export const chatCompletionModel = object({
  choices: {
    type: 'array',
    minItems: 1,
    items: object({ message: object({ content: text }) }),
  },
});

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<unknown, ReturnType<typeof ajv.compile>>();

/** What a strict client would reject in `body`, as readable lines (empty when it parses). */
export function strictClientProblems(model: Record<string, unknown>, body: unknown): string[] {
  const validate = compiled.get(model) ?? ajv.compile(model);
  compiled.set(model, validate);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
}
