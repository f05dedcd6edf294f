import fc from 'fast-check';

/**
 * Generators for what a compromised node registers and what a steered model replies: not only
 * hostile request bodies (hostile-input.ts) but hostile JSON Schemas and hostile tool-call
 * replies, built from the shapes that broke the service before (issue 10).
 */
const EVIL_PATTERNS = [
  '^(a+)+$',
  '(a|a)*b',
  '^(\\w+\\s?)*$',
  '(x+x+)+y',
  '\\1(a)',
  '(?=a)a',
  'a{1000}',
  '[',
  '',
];

const leafSchema = fc.oneof(
  fc.record({
    type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null', 'object', 'array'),
  }),
  fc.record({
    type: fc.constant('string'),
    pattern: fc.oneof(fc.constantFrom(...EVIL_PATTERNS), fc.string({ maxLength: 300 })),
  }),
  fc.record({
    enum: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxLength: 600 }),
  }),
  fc.record({
    $ref: fc.constantFrom(
      '#',
      '#/properties/a',
      '#/definitions/d',
      '#/$defs/x',
      'http://example.com/s',
      '#/properties/a/items',
    ),
  }),
  fc.record({
    type: fc.constant('string'),
    format: fc.constantFrom('date-time', 'email', 'uri', 'regex', 'unknown-format'),
  }),
);

/** A JSON Schema of random shape and depth, hostile pieces included. */
export const hostileSchema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafSchema,
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(
          fc.constantFrom('a', 'b', 'c', 'items', '__proto__'),
          tie('schema'),
          { maxKeys: 4 },
        ),
        patternProperties: fc.dictionary(fc.constantFrom(...EVIL_PATTERNS), tie('schema'), {
          maxKeys: 2,
        }),
        definitions: fc.dictionary(fc.constantFrom('d', 'e'), tie('schema'), { maxKeys: 2 }),
        required: fc.array(fc.constantFrom('a', 'b', 'zz'), { maxLength: 3 }),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constant('array'),
        items: tie('schema'),
        uniqueItems: fc.boolean(),
        maxItems: fc.nat(10_000),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ anyOf: fc.array(tie('schema'), { maxLength: 30 }) }),
    fc.record({ oneOf: fc.array(tie('schema'), { maxLength: 5 }) }),
    fc.record({ allOf: fc.array(tie('schema'), { maxLength: 20 }) }),
  ),
})).schema;

/** Arguments of any shape, with the large and deep ones that cost before. */
export const hostileArguments: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything(),
  fc.json(),
  fc.constant({ a: `${'a'.repeat(40)}!` }),
  fc
    .integer({ min: 1, max: 9_000 })
    .map((count) => ({ items: Array.from({ length: count }, (_, index) => ({ index })) })),
  fc
    .integer({ min: 10, max: 3_000 })
    .map((depth) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)),
  fc.constant({ a: ' '.repeat(20_000) }),
);

const ids = fc.oneof(
  fc.constant(null),
  fc.constantFrom(
    '',
    'call_1',
    'call_1',
    'call 1',
    'appel_é',
    `call_${'x'.repeat(200)}`,
    'call\u0000',
  ),
  fc.string({ maxLength: 20 }),
);
const names = fc.constantFrom(
  'set_timer',
  'calculate',
  'resolve_relative_date',
  'request_validation',
  'get_command_utterance_examples',
  'unlock_front_door',
  '',
);
const markup = fc.constantFrom(
  '<tool_call>{"name": "unlock_front_door", "arguments": {}}</tool_call>',
  '<function=set_timer>{"duration_seconds": 5}</function>',
  '```json\n{"name": "calculate", "arguments": {"num1": 1}}\n```',
  '<think>plan</think>Sure.',
  'Done.',
);

/** One model reply: any number of tool calls with any ids, names and arguments, and any text. */
export const hostileReply = fc.record({
  reply: fc.record({
    content: fc.option(fc.oneof(markup, fc.string({ maxLength: 200 }))),
    tool_calls: fc.array(
      fc.record({
        id: ids,
        name: names,
        arguments: fc.oneof(
          hostileArguments.map((value) => JSON.stringify(value) ?? 'null'),
          fc.string({ maxLength: 50 }),
        ),
      }),
      { maxLength: 60 },
    ),
  }),
});
