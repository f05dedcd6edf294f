import { seededText } from '../support/seeded-text';
import { type HostileRequestCase, utterance } from './hostile-request-case';

/**
 * Issue 18's reply-side rows as whole requests: what a model sends that multiplies a bound (a
 * megabyte of markup, calls that leave no room for their results, numbers JSON cannot carry,
 * `<|python_tag|>` code). Each must answer in bounded work and leave the conversation usable.
 */
const NOTES = {
  available_commands: [
    {
      command_name: 'store_note',
      parameters: [{ name: 'text', type: 'string', required: true }],
    },
  ],
};
const text = (content: string) => ({ reply: { content } });
const calls = (count: number, bytes: (index: number) => number) => ({
  reply: {
    tool_calls: Array.from({ length: count }, (_, index) => ({
      id: `call_${index}`,
      name: 'store_note',
      arguments: JSON.stringify({ text: 'n'.repeat(bytes(index)) }),
    })),
  },
});

/**
 * The costliest schema the cost bound accepts, for the engine as it runs: 194 steps a byte (the
 * limit is 200). A run remembers the sets of states it meets (run-program.ts), so `[ab]{0,95}c`
 * on `abab...` is one set after 95 characters; `a[ab]{188}c` remembers where each of the last
 * 188 `a`s was, a new set at every character of a text with no pattern to it.
 */
const AT_THE_BOUND = {
  client_tools: [
    {
      type: 'function',
      function: {
        name: 'store_note',
        parameters: {
          type: 'object',
          properties: { text: { type: 'string', pattern: 'a[ab]{188}c' } },
        },
      },
    },
  ],
};

/** 8,150 of `a` and `b`, two `a`s in three, in no order a set of states repeats in. */
const SETS_APART = seededText(8_150, 'aab', 12_345);

export const REPLY_SIDE_ROWS: readonly HostileRequestCase[] = [
  {
    // 30 calls: the most of 8 KiB a reply body carries (REPLY_BODY_LIMIT_BYTES).
    name: 'issue 18: the costliest accepted schema, 30 calls of 8 KiB that meet a new set of states at every character',
    registration: AT_THE_BOUND,
    modelReplies: Array.from({ length: 3 }, () => ({
      reply: {
        tool_calls: Array.from({ length: 30 }, (_, index) => ({
          id: `call_${index}`,
          name: 'store_note',
          arguments: JSON.stringify({ text: SETS_APART }),
        })),
      },
    })),
    request: utterance('store my notes'),
    expectedStatuses: [200],
  },
  {
    name: 'issue 18 row 4: a reply of 2 MB of <function=store_note>{',
    registration: NOTES,
    modelReplies: [text('<function=store_note>{'.repeat(90_000)), text('Stored.')],
    request: utterance('store a note'),
    expectedStatuses: [200],
  },
  {
    name: 'issue 18 row 4: 60 KB of <tool_call> markup, under the text limit',
    registration: NOTES,
    modelReplies: [
      text('<tool_call>{"name": "store_note", "arguments": {'.repeat(1_300)),
      text('Stored.'),
    ],
    request: utterance('store a note'),
    expectedStatuses: [200],
  },
  {
    name: 'issue 18 row 5: 32 valid calls of 5-8 KiB arguments, three times',
    registration: NOTES,
    modelReplies: Array.from({ length: 3 }, () => calls(32, (index) => 5_000 + index * 96)),
    request: utterance('store my notes'),
    expectedStatuses: [200],
  },
  {
    name: 'issue 18 row 8: 1e400 and 2^53 + 1 for the arguments, three times',
    registration: NOTES,
    modelReplies: Array.from({ length: 3 }, () => ({
      reply: {
        tool_calls: [
          { id: 'call_n', name: 'store_note', arguments: '{"text": 1e400}' },
          { id: 'call_i', name: 'store_note', arguments: '{"text": 9007199254740993}' },
        ],
      },
    })),
    request: utterance('store a number'),
    expectedStatuses: [200],
  },
  {
    name: "issue 18: Llama's <|python_tag|> with 60 KB of code",
    registration: NOTES,
    modelReplies: [text(`<|python_tag|>${'print(1);'.repeat(6_500)}`), text('Done.')],
    request: utterance('run it'),
    expectedStatuses: [200],
  },
];
