import { describe, expect, it } from 'vitest';
import type { CallCheck, NormalizationPolicy } from '../../../shared/params';
import { compileOrThrow, typedCommand } from '../support/command-sets';

const set = compileOrThrow({
  available_commands: [
    typedCommand('probe', [
      { name: 'when', type: 'array<datetime>' },
      { name: 'data', type: 'dict' },
      { name: 'count', type: 'int' },
      { name: 'ratio', type: 'float' },
      { name: 'flag', type: 'bool' },
    ]),
    typedCommand('needs', [
      { name: 'count', type: 'int', required: true },
      { name: 'when', type: 'array<datetime>', required: true },
    ]),
  ],
});

type Outcome =
  | { readonly arguments: Record<string, unknown>; readonly rules: readonly string[] }
  | { readonly issues: readonly [string, string][] };

interface Row {
  readonly command: 'probe' | 'needs';
  readonly sent: Record<string, unknown>;
  readonly lossless: Outcome;
  readonly strict: Outcome;
  readonly lenient?: Outcome;
}

const NEEDS_WHEN = { when: ['2026-01-18T05:00:00Z'] };
const PLACEHOLDER_STRINGS = ['null', 'None', 'none', 'default', ''];

// The "Argument shape" table of llm-failure-modes.md, one row per case; lenient = lossless unless given.
const ARGUMENT_SHAPE: readonly [string, Row][] = [
  [
    'a JSON-encoded list for array<datetime>',
    {
      command: 'probe',
      sent: { when: '["2026-01-18T05:00:00Z"]' },
      lossless: { arguments: { when: ['2026-01-18T05:00:00Z'] }, rules: ['parse_json_string'] },
      strict: { issues: [['wrong_type', 'when']] },
    },
  ],
  [
    'a JSON-encoded object for dict',
    {
      command: 'probe',
      sent: { data: '{"lat": 1}' },
      lossless: { arguments: { data: { lat: 1 } }, rules: ['parse_json_string'] },
      strict: { issues: [['wrong_type', 'data']] },
    },
  ],
  [
    '"5" for int',
    {
      command: 'probe',
      sent: { count: '5' },
      lossless: { arguments: { count: 5 }, rules: ['parse_integer_string'] },
      strict: { issues: [['wrong_type', 'count']] },
    },
  ],
  [
    '"5.0" for int',
    {
      command: 'probe',
      sent: { count: '5.0' },
      lossless: { arguments: { count: 5 }, rules: ['parse_integer_string'] },
      strict: { issues: [['wrong_type', 'count']] },
    },
  ],
  [
    '"5.5" for int',
    {
      command: 'probe',
      sent: { count: '5.5' },
      lossless: { issues: [['wrong_type', 'count']] },
      strict: { issues: [['wrong_type', 'count']] },
    },
  ],
  [
    '"2.5" for float',
    {
      command: 'probe',
      sent: { ratio: '2.5' },
      lossless: { arguments: { ratio: 2.5 }, rules: ['parse_number_string'] },
      strict: { issues: [['wrong_type', 'ratio']] },
    },
  ],
  [
    '"true" for bool',
    {
      command: 'probe',
      sent: { flag: 'true' },
      lossless: { arguments: { flag: true }, rules: ['parse_boolean_string'] },
      strict: { issues: [['wrong_type', 'flag']] },
    },
  ],
  [
    '"False" for bool',
    {
      command: 'probe',
      sent: { flag: 'False' },
      lossless: { arguments: { flag: false }, rules: ['parse_boolean_string'] },
      strict: { issues: [['wrong_type', 'flag']] },
    },
  ],
  [
    'one value for array<datetime>',
    {
      command: 'probe',
      sent: { when: '2026-01-18T05:00:00Z' },
      lossless: { arguments: { when: ['2026-01-18T05:00:00Z'] }, rules: ['wrap_single_value'] },
      strict: { issues: [['wrong_type', 'when']] },
    },
  ],
  ...PLACEHOLDER_STRINGS.map((placeholder): [string, Row] => [
    `${JSON.stringify(placeholder)} for an optional parameter`,
    {
      command: 'probe',
      sent: { count: placeholder, flag: true },
      lossless: { arguments: { flag: true }, rules: ['drop_placeholder'] },
      strict: { issues: [['wrong_type', 'count']] },
    },
  ]),
  [
    'null for an optional parameter',
    {
      command: 'probe',
      sent: { count: null, flag: true },
      lossless: { arguments: { flag: true }, rules: ['drop_null'] },
      strict: { arguments: { flag: true }, rules: ['drop_null'] },
    },
  ],
  ...[...PLACEHOLDER_STRINGS, null].map((placeholder): [string, Row] => [
    `${JSON.stringify(placeholder)} for a required parameter`,
    {
      command: 'needs',
      sent: { count: placeholder, ...NEEDS_WHEN },
      lossless: { issues: [['missing_parameter', 'count']] },
      strict: { issues: [['missing_parameter', 'count']] },
    },
  ]),
  [
    'a required parameter left out',
    {
      command: 'needs',
      sent: NEEDS_WHEN,
      lossless: { issues: [['missing_parameter', 'count']] },
      strict: { issues: [['missing_parameter', 'count']] },
    },
  ],
  [
    '"yes" for bool',
    {
      command: 'probe',
      sent: { flag: 'yes' },
      lossless: { issues: [['wrong_type', 'flag']] },
      strict: { issues: [['wrong_type', 'flag']] },
      lenient: { arguments: { flag: true }, rules: ['boolean_from_word'] },
    },
  ],
  [
    '1 for bool',
    {
      command: 'probe',
      sent: { flag: 1 },
      lossless: { issues: [['wrong_type', 'flag']] },
      strict: { issues: [['wrong_type', 'flag']] },
      lenient: { arguments: { flag: true }, rules: ['boolean_from_word'] },
    },
  ],
];

function outcomeOf(check: CallCheck): Outcome {
  if (!check.ok)
    return { issues: check.issues.map((issue) => [issue.code, issue.parameter ?? '']) };
  return { arguments: { ...check.arguments }, rules: check.repairs.map((repair) => repair.rule) };
}

describe.each<NormalizationPolicy>(['strict', 'lossless', 'lenient'])(
  'the Argument shape table under %s',
  (policy) => {
    it.each(ARGUMENT_SHAPE)('%s', (_case, row) => {
      // Prepare
      const expected = policy === 'lenient' ? (row.lenient ?? row.lossless) : row[policy];
      const sent = structuredClone(row.sent);

      // Act
      const check = set.check({ name: row.command, arguments: Object.freeze(sent) }, policy);

      // Assess
      expect(outcomeOf(check)).toEqual(expected);
      expect(sent).toEqual(row.sent);
    });
  },
);

describe('lossless repairs recorded with their values', () => {
  it('records parameter, rule, value before and after, item by item', () => {
    // Act
    const check = set.check(
      {
        name: 'probe',
        arguments: { when: '["2026-01-18t05:00:00z", "2026-01-19 06:00+01:00"]', count: 'none' },
      },
      'lossless',
    );

    // Assess
    expect(check).toEqual({
      ok: true,
      arguments: { when: ['2026-01-18T05:00:00Z', '2026-01-19T06:00:00+01:00'] },
      repairs: [
        {
          command: 'probe',
          parameter: 'when',
          rule: 'parse_json_string',
          before: '["2026-01-18t05:00:00z", "2026-01-19 06:00+01:00"]',
          after: ['2026-01-18t05:00:00z', '2026-01-19 06:00+01:00'],
        },
        {
          command: 'probe',
          parameter: 'when[0]',
          rule: 'canonicalize_datetime',
          before: '2026-01-18t05:00:00z',
          after: '2026-01-18T05:00:00Z',
        },
        {
          command: 'probe',
          parameter: 'when[1]',
          rule: 'canonicalize_datetime',
          before: '2026-01-19 06:00+01:00',
          after: '2026-01-19T06:00:00+01:00',
        },
        {
          command: 'probe',
          parameter: 'count',
          rule: 'drop_placeholder',
          before: 'none',
          after: undefined,
        },
      ],
    });
  });
});
