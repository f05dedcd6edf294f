import { REPLY_BODY_LIMIT_BYTES } from '../../shared/adapters/openai/reply-body-limit';
import { type HostileRequestCase, utterance, VOICE_COMMAND_PATH } from './hostile-request-case';
import { HOSTILE_SCHEMA_CASES } from './hostile-schema-cases';
import { REPLY_SIDE_ROWS } from './reply-side-requests';

const nativeCalls = (
  calls: readonly { id: string | null; name: string; arguments: unknown }[],
) => ({
  reply: {
    tool_calls: calls.map((call) => ({
      ...(call.id === null ? {} : { id: call.id }),
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    })),
  },
});
const TIMER_COMMANDS = {
  available_commands: [
    {
      command_name: 'set_timer',
      parameters: [{ name: 'duration_seconds', type: 'int', required: true }],
    },
  ],
};
const timer = (seconds: number, id: string | null) => ({
  id,
  name: 'set_timer',
  arguments: { duration_seconds: seconds },
});

/** Whether `value` can go over the wire as JSON (100,000 levels deep cannot: stringify recurses). */
function serializable(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

/** A call no reply body can carry: the model's reply is cut off unread. */
function overTheBodyLimit(call: unknown): boolean {
  return (JSON.stringify(call) ?? '').length > REPLY_BODY_LIMIT_BYTES;
}

/**
 * Rows 1, 2, 3, 9 and 10 of the parameter system, as a node and a model would send them (the
 * lenient row needs another normalization policy, and the 100,000-deep cases cannot be written
 * as JSON by a sender: those stay in hostile-schemas.test.ts).
 */
const schemaRows: HostileRequestCase[] = HOSTILE_SCHEMA_CASES.filter(
  (hostile) => hostile.call?.policy !== 'lenient' && serializable(hostile),
).map((hostile) => {
  const refused = 'refused' in hostile.expected;
  const call = hostile.call;
  return {
    name: hostile.name,
    registration: hostile.source as unknown as Record<string, unknown>,
    modelReplies:
      call === undefined
        ? []
        : Array.from({ length: 3 }, () => nativeCalls([{ id: null, ...call }])),
    request: refused || call === undefined ? null : utterance('do the probe'),
    // A call no reply body can carry (a 1 MB argument) is never read: the model is asked again
    // until its attempts run out.
    expectedStatuses: refused ? [400, 413] : overTheBodyLimit(call) ? [502] : [200],
  };
});

/**
 * The hostile corpus of issue 10 as whole requests through the real handlers: each case starts a
 * conversation, scripts what the model sends, makes its request, and names the statuses it may
 * get. After every case the conversation must still work (a plain voice/command answers 200).
 * The test asserts the outcomes; `npm run bench -- --only attack` times the same requests.
 */
export const HOSTILE_REQUEST_CASES: readonly HostileRequestCase[] = [
  ...schemaRows,
  {
    name: 'row 4: a retry reusing the id of a call held for the node',
    registration: TIMER_COMMANDS,
    modelReplies: [
      nativeCalls([timer(60, 'call_0'), { id: 'call_1', name: 'set_timer', arguments: {} }]),
      nativeCalls([timer(120, 'call_0')]),
    ],
    request: utterance('two timers'),
    expectedStatuses: [200],
  },
  {
    name: 'row 6: 200 server-tool calls in one reply',
    registration: TIMER_COMMANDS,
    modelReplies: [
      nativeCalls(
        Array.from({ length: 200 }, (_, index) => ({
          id: `call_${index}`,
          name: 'resolve_relative_date',
          arguments: { relative_term: 'next friday at 3pm' },
        })),
      ),
      { reply: { content: 'Friday.' } },
    ],
    request: utterance('when is friday'),
    expectedStatuses: [200],
  },
  {
    name: 'row 6: 3,000 resolve_relative_date calls in one reply',
    registration: TIMER_COMMANDS,
    modelReplies: [
      nativeCalls(
        Array.from({ length: 3_000 }, (_, index) => ({
          id: `call_${index}`,
          name: 'resolve_relative_date',
          arguments: { relative_term: 'in 20 minutes' },
        })),
      ),
      { reply: { content: 'Soon.' } },
    ],
    request: utterance('when'),
    expectedStatuses: [200],
  },
  {
    name: 'row 7: 40 valid node calls in one reply',
    registration: TIMER_COMMANDS,
    modelReplies: [
      nativeCalls(Array.from({ length: 40 }, (_, index) => timer(index + 1, `call_${index}`))),
      { reply: { content: 'Done.' } },
    ],
    request: utterance('forty timers'),
    expectedStatuses: [200],
  },
  {
    name: 'row 8: ids with a space, over 128 characters, non-ASCII',
    registration: TIMER_COMMANDS,
    modelReplies: [
      nativeCalls([timer(1, 'call 1'), timer(2, `call_${'x'.repeat(200)}`), timer(3, 'appel_é')]),
    ],
    request: utterance('three timers'),
    expectedStatuses: [200],
  },
  {
    name: 'row 11: a 250 KB schema-invalid body with no key',
    registration: TIMER_COMMANDS,
    modelReplies: [],
    request: {
      path: VOICE_COMMAND_PATH,
      body: { voice_command: 'x'.repeat(250_000), conversation_id: 7 },
    },
    anonymous: true,
    expectedStatuses: [401],
  },
  {
    name: 'row 12: <tool_call> markup naming an undeclared tool',
    registration: TIMER_COMMANDS,
    modelReplies: Array.from({ length: 3 }, () => ({
      reply: {
        content:
          '<tool_call>{"name": "unlock_front_door", "arguments": {"code": "0000"}}</tool_call>',
      },
    })),
    request: utterance('unlock the front door'),
    expectedStatuses: [200],
  },
  ...REPLY_SIDE_ROWS,
];
