import fc from 'fast-check';
import { type HostileRequestCase, VOICE_COMMAND_PATH } from './hostile-request-case';
import { argumentsAtLimits, multipliedParameters } from './multiplied-generators';

/**
 * Issue 18 item 8, the request side multiplied: a registration of multiplied schemas (and
 * prototype names) beside a plain command, then model replies that combine every reply-side knob
 * at once: megabyte texts of call markup, many calls with big arguments at the argument limits,
 * numbers JSON cannot carry, prototype keys, unknown and server tool names, in up to three replies
 * of one turn. The property (multiplied-requests.test.ts): every request answered, no 500, the
 * conversation usable; the attack bench measures the CPU of a fixed sample.
 */
const NAMES = ['probe', 'store_note', 'nowhere', 'constructor', '__proto__', 'request_validation'];

const registration = multipliedParameters.map((parameters) => ({
  available_commands: [
    {
      command_name: 'store_note',
      parameters: [
        { name: 'text', type: 'string', required: true },
        { name: 'constructor', type: 'string' },
        { name: 'toString', type: 'int' },
      ],
    },
  ],
  client_tools: [{ type: 'function', function: { name: 'probe', parameters } }],
}));

/** Argument texts: at the limits, inexact numbers, prototype keys, broken and oversized JSON. */
const argumentText = fc.oneof(
  argumentsAtLimits.map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '{"text": 1e400, "toString": 9007199254740993}',
    '{"__proto__": {"text": "x"}, "constructor": "y", "text": "z"}',
    '{"text": "a", "toString": 1e-400}',
    '{"text": ',
  ),
  fc.integer({ min: 1, max: 70_000 }).map((bytes) => JSON.stringify({ text: 'n'.repeat(bytes) })),
);

const anyCall = fc.record({
  id: fc.option(fc.constantFrom('call_a', 'call_a', '__proto__', 'x'.repeat(200)), { nil: null }),
  name: fc.constantFrom(...NAMES),
  arguments: argumentText,
});
/** Valid calls of big arguments: what the node is handed, up to the room their results leave. */
const validNote = fc.record({
  id: fc.option(fc.constantFrom('call_a', 'call_b', 'constructor'), { nil: null }),
  name: fc.constant('store_note'),
  arguments: fc
    .tuple(fc.integer({ min: 1, max: 14_000 }), fc.constantFrom('n', 'é', '"', '\\u0000'))
    .map(([length, unit]) => JSON.stringify({ text: unit.repeat(length) })),
});
const toolCall = fc.oneof({ arbitrary: validNote, weight: 2 }, { arbitrary: anyCall, weight: 1 });

/** Reply texts: nothing, a sentence, or call markup repeated up to a few megabytes. */
const replyText = fc.oneof(
  fc.constant(null),
  fc.constant('Done.'),
  fc
    .tuple(
      fc.constantFrom(
        '<function=store_note>{',
        '<tool_call>{"name": "store_note", "arguments": {',
        '<|python_tag|>store_note.call(text="',
        '[TOOL_CALLS][{"name": "probe", "arguments": ',
      ),
      fc.integer({ min: 1, max: 150_000 }),
    )
    .map(([unit, times]) => unit.repeat(times)),
);

const modelReply = fc
  .record({
    content: replyText,
    tool_calls: fc.array(toolCall, { maxLength: 40 }),
  })
  .map(({ content, tool_calls }) => ({
    reply: tool_calls.length === 0 ? { content: content ?? '' } : { content, tool_calls },
  }));

/** One whole multiplied request; enough plain answers follow the generated replies. */
export const multipliedRequest: fc.Arbitrary<HostileRequestCase> = fc
  .tuple(registration, fc.array(modelReply, { minLength: 1, maxLength: 3 }), fc.nat(999))
  .map(([source, replies, index]) => ({
    name: `issue 18 multiplied request ${index}`,
    registration: source,
    modelReplies: [...replies, ...Array.from({ length: 6 }, () => ({ reply: { content: 'OK.' } }))],
    request: { path: VOICE_COMMAND_PATH, body: { voice_command: 'store a note and probe' } },
    expectedStatuses: [200, 400, 413, 422, 502],
  }));

/** The fixed sample the attack bench sends (the same cases on every run). */
export function multipliedRequestSample(count: number): HostileRequestCase[] {
  return fc.sample(multipliedRequest, { numRuns: count, seed: 18 });
}
