import type { FixedStep, RecordedRequest } from '../../test/support/scripted-llm-server';

/** One exchange of the conversation the bench plays: what the user says, the call, the answer. */
export interface ScriptedExchange {
  readonly utterance: string;
  readonly command: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /**
   * What the real node sends for it (jarvis-node-setup's tool_result_formatter.py): `success`,
   * the command's spoken `message` when it sets one, its `context`, `error`.
   */
  readonly output: Readonly<Record<string, unknown>>;
  /** The spoken answer the model writes from the output (when the model is asked for one). */
  readonly answer: string;
}

/** A node success: `message` promoted from the command's context_data when it has one. */
const nodeSuccess = (context: Record<string, unknown>, message?: string) => ({
  success: true,
  ...(message === undefined ? {} : { message }),
  context,
  error: null,
});

/** Five exchanges with the fixture's commands, replies of a realistic length for a small model. */
export const EXCHANGES: readonly ScriptedExchange[] = [
  {
    utterance: 'Set a timer for ten minutes for the pasta',
    command: 'set_timer',
    arguments: { duration_seconds: 600, label: 'pasta' },
    // timer_command.py: its confirmation is the message.
    output: nodeSuccess(
      { timer_id: 'b7c41e', duration_seconds: 600, duration_text: '10 minutes', label: 'pasta' },
      'Timer set for 10 minutes for pasta',
    ),
    answer: "Your pasta timer is set for ten minutes. I'll let you know when it's done.",
  },
  {
    utterance: 'Turn on the kitchen lights',
    command: 'control_device',
    arguments: { device_name: 'kitchen lights', action: 'turn_on' },
    // control_device_command.py: the action and the device are the message.
    output: nodeSuccess({ device: 'kitchen lights', action: 'turn_on' }, 'Turn On kitchen lights'),
    answer: 'The kitchen lights are on now.',
  },
  {
    utterance: "What's the weather in Paris tomorrow?",
    command: 'get_weather',
    arguments: { city: 'Paris', resolved_datetimes: ['2026-11-26T12:00:00+01:00'] },
    // A weather command returns its data for the model to word (no message).
    output: nodeSuccess({ city: 'Paris', summary: 'light rain', high_c: 9, low_c: 4 }),
    answer: 'Tomorrow in Paris expect light rain, with a high of nine and a low of four degrees.',
  },
  {
    utterance: 'Play some jazz in the living room',
    command: 'music',
    arguments: { action: 'play', query: 'jazz' },
    // No music command in jarvis-node-setup to copy: its data only, the model words it.
    output: nodeSuccess({ playing: 'Jazz Classics', device: 'living room speaker' }),
    answer: 'Playing Jazz Classics on the living room speaker.',
  },
  {
    utterance: 'Tell me a joke about cats',
    command: 'tell_joke',
    arguments: { topic: 'cats' },
    // tell_a_joke_command.py: a topic and a seed, no message; the model writes the joke.
    output: nodeSuccess({ topic: 'cats', variety_seed: 4821 }),
    answer: 'Why did the cat sit on the computer? To keep an eye on the mouse!',
  },
];

const textOf = (content: unknown): string => (typeof content === 'string' ? content : '');

/**
 * JSON as Qwen3 writes a call's arguments: with a space after `:` and `,`, the way its template
 * shows it the tools (Python's `json.dumps`), a token or three more than compact JSON.
 */
function modelJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(modelJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).map(
      ([key, field]) => `${JSON.stringify(key)}: ${modelJson(field)}`,
    );
    return `{${fields.join(', ')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The model's judgement for the bench, from the request alone: a warm-up (`max_tokens` 1) gets a
 * word (cut to one token by the latency model); an utterance gets its exchange's call; a tool
 * result gets the spoken answer of the call it answers.
 */
export function localModelReply(request: RecordedRequest): FixedStep {
  const messages = request.body?.messages ?? [];
  const last = messages.at(-1);
  if (request.body?.max_tokens === 1) return { reply: { content: 'Hello! How can I help?' } };
  if (last?.role === 'user') {
    const text = textOf(last.content);
    const exchange = EXCHANGES.find((candidate) => text.endsWith(candidate.utterance));
    if (exchange === undefined) return { reply: { content: 'Sorry, I did not catch that.' } };
    const call = { name: exchange.command, arguments: modelJson(exchange.arguments) };
    return { reply: { content: null, tool_calls: [call] } };
  }
  const calling = messages.findLast((message) => message.role === 'assistant');
  const name = calling?.tool_calls?.[0]?.function.name;
  const exchange = EXCHANGES.find((candidate) => candidate.command === name);
  return { reply: { content: exchange?.answer ?? 'Done.' } };
}
