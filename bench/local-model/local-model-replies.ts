import type { FixedStep, RecordedRequest } from '../../test/support/scripted-llm-server';

/** One exchange of the conversation the bench plays: what the user says, the call, the answer. */
export interface ScriptedExchange {
  readonly utterance: string;
  readonly command: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** What the node's command returns. */
  readonly output: Readonly<Record<string, unknown>>;
  /** The spoken answer the model writes from the output. */
  readonly answer: string;
}

/** Five exchanges with the fixture's commands, replies of a realistic length for a small model. */
export const EXCHANGES: readonly ScriptedExchange[] = [
  {
    utterance: 'Set a timer for ten minutes for the pasta',
    command: 'set_timer',
    arguments: { duration_seconds: 600, label: 'pasta' },
    output: { status: 'running', label: 'pasta', remaining_seconds: 600 },
    answer: "Your pasta timer is set for ten minutes. I'll let you know when it's done.",
  },
  {
    utterance: 'Turn on the kitchen lights',
    command: 'control_device',
    arguments: { device_name: 'kitchen lights', action: 'turn_on' },
    output: { device: 'light.kitchen', state: 'on' },
    answer: 'The kitchen lights are on now.',
  },
  {
    utterance: "What's the weather in Paris tomorrow?",
    command: 'get_weather',
    arguments: { city: 'Paris', resolved_datetimes: ['2026-11-26T12:00:00+01:00'] },
    output: { city: 'Paris', summary: 'light rain', high_c: 9, low_c: 4 },
    answer: 'Tomorrow in Paris expect light rain, with a high of nine and a low of four degrees.',
  },
  {
    utterance: 'Play some jazz in the living room',
    command: 'music',
    arguments: { action: 'play', query: 'jazz' },
    output: { playing: 'Jazz Classics', device: 'living room speaker' },
    answer: 'Playing Jazz Classics on the living room speaker.',
  },
  {
    utterance: 'Tell me a joke about cats',
    command: 'tell_joke',
    arguments: { topic: 'cats' },
    output: { joke: 'Why did the cat sit on the computer? To keep an eye on the mouse.' },
    answer: 'Why did the cat sit on the computer? To keep an eye on the mouse!',
  },
];

const textOf = (content: unknown): string => (typeof content === 'string' ? content : '');

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
    const call = { name: exchange.command, arguments: JSON.stringify(exchange.arguments) };
    return { reply: { content: null, tool_calls: [call] } };
  }
  const calling = messages.findLast((message) => message.role === 'assistant');
  const name = calling?.tool_calls?.[0]?.function.name;
  const exchange = EXCHANGES.find((candidate) => candidate.command === name);
  return { reply: { content: exchange?.answer ?? 'Done.' } };
}
