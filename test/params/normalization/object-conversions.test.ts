import { describe, expect, it } from 'vitest';
import type { NormalizationPolicy } from '../../../shared/params';
import { clientTool, compileOrThrow, typedCommand } from '../support/command-sets';

// Issue 29, item 1: the universal adapter's object conversions, at any depth of a declared shape,
// and which policy may do which (docs/parameters.md, "Objects and lists of objects").
const OPTION = {
  type: 'object',
  properties: {
    label: { type: 'string' },
    description: { type: 'string' },
    proposedBy: { type: 'string' },
  },
  required: ['label', 'description'],
};
const set = compileOrThrow({
  client_tools: [
    clientTool('propose', {
      type: 'object',
      properties: {
        question: { type: 'string' },
        options: { type: 'array', minItems: 2, items: OPTION },
        meta: {
          type: 'object',
          properties: {
            count: { type: 'integer' },
            urgent: { type: 'boolean' },
            priority: { type: 'string', enum: ['low', 'high'] },
            alternatives: { type: 'array', items: OPTION },
          },
        },
        named: {
          type: 'object',
          properties: { name: { type: 'string' }, note: { type: 'string' } },
          required: ['name'],
        },
      },
      required: ['question'],
    }),
  ],
  available_commands: [typedCommand('paint', [{ name: 'place', type: 'dict' }])],
});

const A = { label: 'Option A', description: 'First choice' };
const B = { label: 'Option B', description: 'Second choice' };
const AB_PROSE = ['Option A: First choice', 'Option B: Second choice'];
const RETRY = 'retry';

type Outcome = typeof RETRY | { readonly arguments: unknown; readonly repairs: readonly string[] };
type Case = readonly [
  name: string,
  args: Record<string, unknown>,
  strict: Outcome,
  lossless: Outcome,
  lenient: Outcome,
];

const q = { question: 'Which one?' };
const same = (args: Record<string, unknown>, ...repairs: string[]): Outcome => ({
  arguments: args,
  repairs,
});

const CASES: readonly Case[] = [
  [
    '"label: description" items',
    { ...q, options: AB_PROSE },
    RETRY,
    RETRY,
    same(
      { ...q, options: [A, B] },
      'options[0]:split_label_description',
      'options[1]:split_label_description',
    ),
  ],
  [
    '"label=A,description=First" items',
    { ...q, options: ['label=A,description=First', 'label=B, description=Second'] },
    RETRY,
    RETRY,
    same(
      {
        ...q,
        options: [
          { label: 'A', description: 'First' },
          { label: 'B', description: 'Second' },
        ],
      },
      'options[0]:split_key_value_pairs',
      'options[1]:split_key_value_pairs',
    ),
  ],
  [
    'JSON-encoded object items',
    { ...q, options: [JSON.stringify(A), JSON.stringify(B)] },
    RETRY,
    same({ ...q, options: [A, B] }, 'options[0]:parse_json_string', 'options[1]:parse_json_string'),
    same({ ...q, options: [A, B] }, 'options[0]:parse_json_string', 'options[1]:parse_json_string'),
  ],
  [
    'the whole list as one JSON string of "label: description" items',
    { ...q, options: JSON.stringify(AB_PROSE) },
    RETRY,
    RETRY,
    same(
      { ...q, options: [A, B] },
      'options:parse_json_string',
      'options[0]:split_label_description',
      'options[1]:split_label_description',
    ),
  ],
  [
    'prose items one level deeper (an object property that is a list of objects)',
    { ...q, meta: { alternatives: AB_PROSE } },
    RETRY,
    RETRY,
    same(
      { ...q, meta: { alternatives: [A, B] } },
      'meta.alternatives[0]:split_label_description',
      'meta.alternatives[1]:split_label_description',
    ),
  ],
  [
    'a nested integer sent as text',
    { ...q, meta: { count: '3', urgent: 'true' } },
    RETRY,
    same(
      { ...q, meta: { count: 3, urgent: true } },
      'meta.count:parse_integer_string',
      'meta.urgent:parse_boolean_string',
    ),
    same(
      { ...q, meta: { count: 3, urgent: true } },
      'meta.count:parse_integer_string',
      'meta.urgent:parse_boolean_string',
    ),
  ],
  [
    'an optional nested property sent as null (the top-level rule, at every depth)',
    { ...q, meta: { count: null }, options: [{ ...A, proposedBy: null }, B] },
    same(
      { ...q, meta: {}, options: [A, B] },
      'options[0].proposedBy:drop_null',
      'meta.count:drop_null',
    ),
    same(
      { ...q, meta: {}, options: [A, B] },
      'options[0].proposedBy:drop_null',
      'meta.count:drop_null',
    ),
    same(
      { ...q, meta: {}, options: [A, B] },
      'options[0].proposedBy:drop_null',
      'meta.count:drop_null',
    ),
  ],
  [
    'a nested enum value in another case, blanks around',
    { ...q, meta: { priority: ' HIGH ' } },
    RETRY,
    same({ ...q, meta: { priority: 'high' } }, 'meta.priority:match_enum_ignoring_case'),
    same({ ...q, meta: { priority: 'high' } }, 'meta.priority:match_enum_ignoring_case'),
  ],
  [
    'an optional nested integer sent as "None"',
    { ...q, meta: { count: 'None' } },
    RETRY,
    same({ ...q, meta: {} }, 'meta.count:drop_placeholder'),
    same({ ...q, meta: {} }, 'meta.count:drop_placeholder'),
  ],
];

const POLICIES: readonly NormalizationPolicy[] = ['strict', 'lossless', 'lenient'];

describe('the object conversions, per policy', () => {
  it.each(CASES)('%s', (_name, args, ...expected) => {
    // Act
    const outcomes = POLICIES.map((policy) => {
      const check = set.check({ name: 'propose', arguments: args }, policy);
      if (!check.ok) return RETRY;
      const repairs = check.repairs.map((repair) => `${repair.parameter}:${repair.rule}`);
      return { arguments: check.arguments, repairs };
    });

    // Assess
    expect(outcomes).toEqual(expected);
  });

  it('prose that fits no declared shape is left to the model, whatever the policy', () => {
    // Prepare: a required property null, a one-string shape, an undeclared key, a plain dict
    const calls = [
      { name: 'propose', arguments: { ...q, options: [{ label: 'A', description: null }, B] } },
      { name: 'propose', arguments: { ...q, named: 'Kitchen: the room with the oven' } },
      { name: 'propose', arguments: { ...q, named: 'name=A,colour=red' } },
      { name: 'paint', arguments: { place: 'color: red' } },
    ];

    // Act
    const checks = calls.map((call) => set.check(call, 'lenient'));

    // Assess
    expect(checks.map((check) => check.ok)).toEqual([false, false, false, false]);
    expect(checks.flatMap((check) => check.repairs)).toEqual([]);
  });

  it('a repaired list of objects is valid, and normalizing it again changes nothing', () => {
    // Act
    const first = set.check({ name: 'propose', arguments: { ...q, options: AB_PROSE } }, 'lenient');
    const again = set.check(
      { name: 'propose', arguments: first.ok ? first.arguments : {} },
      'lenient',
    );

    // Assess
    expect(first.ok).toBe(true);
    expect(again).toEqual({ ok: true, arguments: { ...q, options: [A, B] }, repairs: [] });
  });

  it('keeps a "__proto__" key of the model\'s JSON as data when it repairs the object around it', () => {
    // Prepare: what JSON.parse gives for the model's arguments, "__proto__" an own key.
    const args = JSON.parse(
      '{"question":"Which?","meta":{"count":"3","__proto__":{"urgent":true}}}',
    );

    // Act: `count` repaired, so `meta` is copied.
    const check = set.check({ name: 'propose', arguments: args }, 'lossless');

    // Assess
    const meta = check.ok ? (check.arguments as { meta: object }).meta : null;
    expect(check.ok).toBe(true);
    expect(meta === null ? null : Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(JSON.stringify(meta)).toBe('{"count":3,"__proto__":{"urgent":true}}');
  });
});
