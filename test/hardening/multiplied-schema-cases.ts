import type { HostileSchemaCase } from './hostile-schema-case';

/**
 * Issue 18: each knob at its limit was bounded, but an attacker multiplies knobs. These combine
 * them (rows 1, 2, 3, 7 and 10 of the second review, and every knob at its limit at once, nested)
 * and must be refused at start by the cost bound, or be valid and cheap. The test asserts the
 * outcome; `npm run bench` (params-hostile, attack) measures their CPU.
 */
const probe = (parameters: Record<string, unknown>) => ({
  client_tools: [{ type: 'function', function: { name: 'probe', parameters } }],
});
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});
const nested = (depth: number, leaf: unknown): unknown =>
  depth === 0 ? leaf : [nested(depth - 1, leaf)];
const times = <T>(count: number, make: (index: number) => T): T[] =>
  Array.from({ length: count }, (_, index) => make(index));
/** A linear pattern of about 1,000 states (the patternStates limit), distinct per index. */
const widePattern = (index: number) => `^[ab]{0,480}${index}$`;
const lossless = (args: unknown) => ({
  name: 'probe',
  arguments: args,
  policy: 'lossless' as const,
});

export const MULTIPLIED_SCHEMA_CASES: readonly HostileSchemaCase[] = [
  {
    name: 'issue 18 row 1: a recursive anyOf $ref under a subschema with its own $id',
    source: probe(
      object({
        n: {
          $id: 'https://example.com/n',
          definitions: {
            node: {
              anyOf: [
                { type: 'integer' },
                { type: 'array', items: { $ref: '#/definitions/node' } },
              ],
            },
          },
          $ref: '#/definitions/node',
        },
      }),
    ),
    call: lossless({ n: nested(7, 1) }),
    expected: { refused: [['schema_limit_exceeded', 'n', 'noSchemaIds']] },
  },
  {
    name: 'issue 18 row 2: 100 patternProperties keys of about 1,000 states, true values',
    source: probe({
      type: 'object',
      patternProperties: Object.fromEntries(times(100, (index) => [widePattern(index), true])),
    }),
    call: lossless({ [`${'ab'.repeat(8_000)}`]: 1 }),
    expected: { refused: [['schema_limit_exceeded', null, 'stepsPerByte']] },
  },
  {
    name: 'issue 18 row 2: nested allOf, 64 patterns on one string',
    source: probe(
      object({
        s: {
          allOf: times(8, (outer) => ({
            allOf: times(8, (inner) => ({ pattern: widePattern(outer * 8 + inner) })),
          })),
        },
      }),
    ),
    call: lossless({ s: 'ab'.repeat(8_000) }),
    expected: { refused: [['schema_limit_exceeded', 's', 'stepsPerByte']] },
  },
  {
    name: 'issue 18 row 3: uniqueItems repeated by 16 x 16 nested allOf',
    source: probe(
      object({
        a: {
          type: 'array',
          items: {
            allOf: times(16, () => ({
              allOf: times(16, () => ({ type: 'array', uniqueItems: true })),
            })),
          },
        },
      }),
    ),
    call: lossless({ a: times(32, () => times(7, (index) => index)) }),
    expected: { refused: [['schema_limit_exceeded', 'a', 'stepsPerByte']] },
  },
  {
    name: 'issue 18 row 7: parameters named constructor, toString, valueOf, hasOwnProperty',
    source: probe(
      object(
        Object.fromEntries(
          ['constructor', 'toString', 'valueOf', 'hasOwnProperty'].map((name) => [
            name,
            { type: 'string' },
          ]),
        ),
        {
          required: ['constructor', 'toString', 'valueOf', 'hasOwnProperty'],
          additionalProperties: false,
        },
      ),
    ),
    call: lossless({ constructor: 'a', toString: 'b', valueOf: 'c', hasOwnProperty: 'd' }),
    expected: { valid: true },
  },
  {
    name: 'issue 18 row 10: the url format on 8 KiB, under 2 allOf branches (16 are refused: 1,072 steps a byte)',
    source: probe(object({ u: { allOf: times(2, () => ({ type: 'string', format: 'url' })) } })),
    call: lossless({ u: `http://${'::'.repeat(4_000)}` }),
    expected: { issues: [['invalid_format', 'u']] },
  },
  {
    name: 'every knob at its limit at once, within the cost bound: 12 branches, patterns, enums, uniqueItems, nested',
    source: probe(
      object({
        deep: nestedObject(3, {
          allOf: times(12, (index) => ({ type: 'string', pattern: `^[a-z]{0,3}${index % 10}?` })),
        }),
        list: { type: 'array', uniqueItems: true, items: { enum: times(64, (index) => index) } },
      }),
    ),
    call: lossless({
      deep: nestedValue(3, 'abc'.repeat(1_000)),
      list: times(64, (index) => index),
    }),
    expected: { valid: true },
  },
];

function nestedObject(depth: number, leaf: Record<string, unknown>): Record<string, unknown> {
  return depth === 0 ? leaf : object({ x: nestedObject(depth - 1, leaf) });
}

function nestedValue(depth: number, leaf: unknown): unknown {
  return depth === 0 ? leaf : { x: nestedValue(depth - 1, leaf) };
}
