import type { NormalizationPolicy } from '../../shared/params';
import type { HostileSchemaCase } from './hostile-schema-case';
import { MULTIPLIED_SCHEMA_CASES } from './multiplied-schema-cases';

const tool = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  client_tools: [
    {
      type: 'function',
      function: { name: 'probe', parameters: { type: 'object', properties, ...extra } },
    },
  ],
});
const typed = (parameters: Record<string, unknown>[]) => ({
  available_commands: [{ command_name: 'probe', parameters }],
});
const call = (args: unknown, policy: NormalizationPolicy = 'lossless') => ({
  name: 'probe',
  arguments: args,
  policy,
});

/** A character class of `count` distinct emoji: `count` + 2 characters, twice as many UTF-16 units. */
const emojiClass = (count: number) =>
  `[${Array.from({ length: count }, (_, index) => String.fromCodePoint(0x1f600 + index)).join('')}]`;

const EVIL = '^(a+)+$';
const EVIL_TEXT = `${'a'.repeat(32)}!`;
const nested = (depth: number, leaf: unknown, key = 'a'): unknown => {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = { [key]: value };
  return value;
};
// Each definition refers to the next one 16 times: 16^8 paths, no recursion.
const chain = Object.fromEntries(
  Array.from({ length: 8 }, (_, index) => [
    `d${index}`,
    { allOf: Array.from({ length: 16 }, () => ({ $ref: `#/definitions/d${index + 1}` })) },
  ]),
);

/**
 * The hostile corpus of the parameter system (issue 10, rows 1, 2, 3, 9 and 10, and their
 * neighbours): registrations and model arguments that cost seconds of CPU, or the process, before
 * the limits. The test asserts each outcome; `npm run bench` times each one.
 */
export const HOSTILE_SCHEMA_CASES: readonly HostileSchemaCase[] = [
  {
    name: 'row 1: pattern ^(a+)+$ and "a" x 32 + "!"',
    source: tool({ text: { type: 'string', pattern: EVIL } }, { required: ['text'] }),
    call: call({ text: EVIL_TEXT }),
    expected: { issues: [['constraint', 'text']] },
  },
  {
    name: 'row 1: the same pattern as a patternProperties key, "a" x 34 + "!"',
    source: tool({
      tags: { type: 'object', patternProperties: { [EVIL]: {} }, additionalProperties: false },
    }),
    call: call({ tags: { [`${'a'.repeat(34)}!`]: 1 } }),
    expected: { issues: [['constraint', 'tags']] },
  },
  {
    name: 'row 1: a pattern an automaton cannot run (backreference)',
    source: tool({ text: { type: 'string', pattern: '^(a+)\\1$' } }),
    expected: { refused: [['schema_limit_exceeded', 'text', 'linearPatterns']] },
  },
  {
    name: 'row 1: a pattern that unrolls to 5,000 states',
    source: tool({ text: { type: 'string', pattern: 'a{5000}' } }),
    expected: { refused: [['schema_limit_exceeded', 'text', 'patternStates']] },
  },
  {
    name: 'row 1: a pattern of 300 characters',
    source: tool({ text: { type: 'string', pattern: 'a'.repeat(300) } }),
    expected: { refused: [['schema_limit_exceeded', 'text', 'patternCharacters']] },
  },
  {
    name: 'row 1: a pattern of 256 characters, a class of 254 emoji (512 UTF-16 units)',
    source: tool({ text: { type: 'string', pattern: emojiClass(254) } }),
    expected: { valid: true },
  },
  {
    name: 'row 1: a pattern of 257 characters, a class of 255 emoji',
    source: tool({ text: { type: 'string', pattern: emojiClass(255) } }),
    expected: { refused: [['schema_limit_exceeded', 'text', 'patternCharacters']] },
  },
  {
    name: 'row 2: a recursive $ref through anyOf',
    source: tool(
      { tree: { $ref: '#/definitions/node' } },
      {
        definitions: {
          node: {
            anyOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/definitions/node' } }],
          },
        },
      },
    ),
    expected: { refused: [['schema_limit_exceeded', null, 'noRecursiveRef']] },
  },
  {
    name: 'row 2: a $ref to the root',
    source: tool({ again: { $ref: '#' } }),
    expected: { refused: [['schema_limit_exceeded', 'again', 'noRecursiveRef']] },
  },
  {
    name: 'row 2: a chain of $refs that multiplies without recursion',
    source: tool({ value: { $ref: '#/definitions/d0' } }, { definitions: { ...chain, d8: {} } }),
    expected: { refused: [['schema_limit_exceeded', null, 'expandedSubschemas']] },
  },
  {
    name: 'row 2: a $ref into data ajv would follow but the walk cannot see',
    source: tool({ value: { $ref: '#/x-hidden/a' } }, { 'x-hidden': { a: { type: 'string' } } }),
    expected: { refused: [['schema_limit_exceeded', 'value', 'localRefsOnly']] },
  },
  {
    name: 'row 3: uniqueItems over 8,000 objects',
    source: tool({ items: { type: 'array', items: { type: 'object' }, uniqueItems: true } }),
    call: call({ items: Array.from({ length: 8_000 }, (_, index) => ({ index })) }),
    expected: { issues: [['arguments_too_large', 'items']] },
  },
  {
    name: 'row 3: uniqueItems over 256 objects (the limit) is checked',
    source: tool({ items: { type: 'array', items: { type: 'object' }, uniqueItems: true } }),
    call: call({ items: Array.from({ length: 256 }, (_, index) => ({ i: index })) }),
    expected: { valid: true },
  },
  {
    name: 'row 9: an integer enum of 44,352 values',
    source: tool({
      n: { type: 'integer', enum: Array.from({ length: 44_352 }, (_, index) => index) },
    }),
    expected: { refused: [['schema_limit_exceeded', null, 'schemaBytes']] },
  },
  {
    name: 'row 9: an enum of 300 short values',
    source: tool({
      n: { type: 'integer', enum: Array.from({ length: 300 }, (_, index) => index) },
    }),
    expected: { refused: [['schema_limit_exceeded', 'n', 'enumValues']] },
  },
  {
    name: 'row 9: typed enum_values of 300 values',
    source: typed([
      { name: 'n', type: 'string', enum_values: Array.from({ length: 300 }, (_, i) => `v${i}`) },
    ]),
    expected: { refused: [['schema_limit_exceeded', 'n', 'enumValues']] },
  },
  {
    name: 'row 10: lenient, a dict parameter, 8,000 spaces + "a"',
    source: typed([{ name: 'place', type: 'dict' }]),
    call: call({ place: `${' '.repeat(8_000)}a` }, 'lenient'),
    expected: { issues: [['wrong_type', 'place']] },
  },
  {
    name: 'row 10: a date-time with 8,000 spaces inside',
    source: typed([{ name: 'when', type: 'datetime' }]),
    call: call({ when: `2026-01-18T05:00${' '.repeat(8_000)}x` }),
    expected: { issues: [['invalid_format', 'when']] },
  },
  {
    name: 'anyOf of 100 branches',
    source: tool({ v: { anyOf: Array.from({ length: 100 }, (_, i) => ({ const: i })) } }),
    expected: { refused: [['schema_limit_exceeded', 'v', 'combinatorBranches']] },
  },
  {
    name: 'a schema nested 20 levels deep',
    source: tool({ deep: nested(20, {}, 'not') }),
    expected: { refused: [['schema_limit_exceeded', 'deep', 'schemaDepth']] },
  },
  {
    name: 'a registration nested 100,000 levels deep',
    source: tool({ deep: { type: 'object', default: nested(100_000, 1) } }),
    expected: { refused: [['schema_limit_exceeded', null, 'registrationDepth']] },
  },
  {
    name: 'arguments nested 100,000 levels deep',
    source: typed([{ name: 'data', type: 'dict' }]),
    call: call({ data: nested(100_000, 1) }),
    expected: { issues: [['arguments_too_large', 'data.a.a.a.a.a.a.a']] },
  },
  {
    name: 'a 1 MB string argument',
    source: typed([{ name: 'text', type: 'string' }]),
    call: call({ text: 'x'.repeat(1_000_000) }),
    expected: { issues: [['arguments_too_large', null]] },
  },
  ...MULTIPLIED_SCHEMA_CASES,
];
