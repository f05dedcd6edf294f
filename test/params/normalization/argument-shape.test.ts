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
      { name: 'label', type: 'string' },
      { name: 'operation', type: 'string', enum_values: ['add', 'subtract', 'multiply'] },
      { name: 'operations', type: 'array<string>', enum_values: ['add', 'subtract', 'multiply'] },
      { name: 'mode', type: 'string', enum_values: ['none', 'eco'] },
      { name: 'switch', type: 'string', enum_values: ['on', 'ON', 'off'] },
    ]),
    typedCommand('needs', [
      { name: 'count', type: 'int', required: true },
      { name: 'when', type: 'array<datetime>', required: true },
      { name: 'title', type: 'string', required: true },
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

const NEEDS_WHEN = { when: ['2026-01-18T05:00:00Z'], title: 'Tea' };
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
  ...PLACEHOLDER_STRINGS.map((placeholder): [string, Row] => [
    `${JSON.stringify(placeholder)} for an optional string parameter`,
    {
      command: 'probe',
      sent: { label: placeholder, flag: true },
      lossless: { arguments: { flag: true }, rules: ['drop_placeholder'] },
      strict: { issues: [['constraint', 'label']] },
    },
  ]),
  [
    'null for an optional string parameter',
    {
      command: 'probe',
      sent: { label: null, flag: true },
      lossless: { arguments: { flag: true }, rules: ['drop_null'] },
      strict: { arguments: { flag: true }, rules: ['drop_null'] },
    },
  ],
  ...[...PLACEHOLDER_STRINGS, null].map((placeholder): [string, Row] => [
    `${JSON.stringify(placeholder)} for a required string parameter`,
    {
      command: 'needs',
      sent: { ...NEEDS_WHEN, count: 1, title: placeholder },
      lossless: { issues: [['missing_parameter', 'title']] },
      strict: { issues: [['missing_parameter', 'title']] },
    },
  ]),
  [
    '"none" where it is one of the enum_values',
    {
      command: 'probe',
      sent: { mode: 'none' },
      lossless: { arguments: { mode: 'none' }, rules: [] },
      strict: { arguments: { mode: 'none' }, rules: [] },
    },
  ],
  [
    '"None" where "none" is one of the enum_values: that value, not left out',
    {
      command: 'probe',
      sent: { mode: 'None' },
      lossless: { arguments: { mode: 'none' }, rules: ['match_enum_ignoring_case'] },
      strict: { issues: [['not_in_enum', 'mode']] },
    },
  ],
  [
    '"SUBTRACT" where the enum is add/subtract/multiply',
    {
      command: 'probe',
      sent: { operation: 'SUBTRACT' },
      lossless: { arguments: { operation: 'subtract' }, rules: ['match_enum_ignoring_case'] },
      strict: { issues: [['not_in_enum', 'operation']] },
    },
  ],
  [
    '" Subtract " (blanks around) where the enum is add/subtract/multiply',
    {
      command: 'probe',
      sent: { operation: ' Subtract ' },
      lossless: { arguments: { operation: 'subtract' }, rules: ['match_enum_ignoring_case'] },
      strict: { issues: [['not_in_enum', 'operation']] },
    },
  ],
  [
    'an array of enum values in other cases, item by item',
    {
      command: 'probe',
      sent: { operations: ['ADD', 'subtract', 'Multiply'] },
      lossless: {
        arguments: { operations: ['add', 'subtract', 'multiply'] },
        rules: ['match_enum_ignoring_case', 'match_enum_ignoring_case'],
      },
      strict: {
        issues: [
          ['not_in_enum', 'operations[0]'],
          ['not_in_enum', 'operations[2]'],
        ],
      },
    },
  ],
  [
    'one enum value in another case for an array parameter',
    {
      command: 'probe',
      sent: { operations: 'ADD' },
      lossless: {
        arguments: { operations: ['add'] },
        rules: ['wrap_single_value', 'match_enum_ignoring_case'],
      },
      strict: { issues: [['wrong_type', 'operations']] },
    },
  ],
  [
    '"On" where both "on" and "ON" are declared (ambiguous)',
    {
      command: 'probe',
      sent: { switch: 'On' },
      lossless: { issues: [['not_in_enum', 'switch']] },
      strict: { issues: [['not_in_enum', 'switch']] },
    },
  ],
  [
    '"divide" where the enum is add/subtract/multiply (no value matches)',
    {
      command: 'probe',
      sent: { operation: 'divide' },
      lossless: { issues: [['not_in_enum', 'operation']] },
      strict: { issues: [['not_in_enum', 'operation']] },
    },
  ],
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
