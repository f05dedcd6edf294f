import { describe, expect, it } from 'vitest';
import type { NormalizationPolicy, ValidationIssue } from '../../../shared/params';
import { compileOrThrow, loadFixture, probeSet } from '../support/command-sets';

const fixture = compileOrThrow(loadFixture());
const dates = probeSet([
  { name: 'at', type: 'datetime' },
  { name: 'on', type: 'date' },
  { name: 'moments', type: 'array<datetime>' },
]);
const WEATHER = 'get_weather';

interface MeaningRow {
  readonly set: typeof fixture;
  readonly name: string;
  readonly sent: unknown;
  /** code, parameter, and a piece of the message. */
  readonly issues: readonly [string, string | null, RegExp][];
}

// The "Meaning" table of llm-failure-modes.md: never repaired, under any policy.
const MEANING: readonly [string, MeaningRow][] = [
  [
    '["tomorrow"] for array<datetime>',
    {
      set: fixture,
      name: WEATHER,
      sent: { resolved_datetimes: ['tomorrow'] },
      issues: [
        ['invalid_format', 'resolved_datetimes[0]', /with a time zone.*resolve_relative_date/],
      ],
    },
  ],
  [
    '"next week" for array<datetime>',
    {
      set: fixture,
      name: WEATHER,
      sent: { resolved_datetimes: 'next week' },
      issues: [['wrong_type', 'resolved_datetimes', /JSON array.*resolve_relative_date/]],
    },
  ],
  [
    '"next week" for datetime',
    {
      set: dates,
      name: 'probe',
      sent: { at: 'next week' },
      issues: [['invalid_format', 'at', /got "next week"\. Call resolve_relative_date/]],
    },
  ],
  [
    'a date-time without a zone',
    {
      set: dates,
      name: 'probe',
      sent: { at: '2026-01-18T05:00:00' },
      issues: [['invalid_format', 'at', /time zone/]],
    },
  ],
  [
    '2026-02-30 for date',
    {
      set: dates,
      name: 'probe',
      sent: { on: '2026-02-30' },
      issues: [['invalid_format', 'on', /YYYY-MM-DD/]],
    },
  ],
  [
    'a value outside the enum',
    {
      set: fixture,
      name: 'calculate',
      sent: { num1: 1, num2: 2, operation: 'modulo' },
      issues: [
        [
          'not_in_enum',
          'operation',
          /one of "add", "subtract", "multiply" or "divide", got "modulo"/,
        ],
      ],
    },
  ],
  [
    'question where the parameter is query',
    {
      set: fixture,
      name: 'answer_question',
      sent: { question: 'Capital of France?' },
      issues: [
        ['missing_parameter', 'query', /required parameter is missing/],
        [
          'unknown_parameter',
          'question',
          /has no parameter named "question"\. Its parameters are: query/,
        ],
      ],
    },
  ],
  [
    'a tool that does not exist',
    {
      set: fixture,
      name: 'get_location',
      sent: {},
      issues: [
        ['unknown_tool', null, /no tool with this name\. Call one of: set_timer, cancel_timer/],
      ],
    },
  ],
  [
    'a required parameter left out',
    {
      set: fixture,
      name: 'set_timer',
      sent: { label: 'pasta' },
      issues: [['missing_parameter', 'duration_seconds', /expected an integer/]],
    },
  ],
  [
    'arguments that are not an object',
    {
      set: fixture,
      name: 'set_timer',
      sent: ['300'],
      issues: [['arguments_not_object', null, /one JSON object/]],
    },
  ],
  [
    'duration_seconds: 900 for "1 hour 30 minutes" (valid by type)',
    { set: fixture, name: 'set_timer', sent: { duration_seconds: 900 }, issues: [] },
  ],
];

function summary(issues: readonly ValidationIssue[]): [string, string | null, string][] {
  return issues.map((issue) => [issue.code, issue.parameter, issue.message]);
}

describe.each<NormalizationPolicy>(['strict', 'lossless', 'lenient'])(
  'the Meaning table under %s',
  (policy) => {
    it.each(MEANING)('%s', (_case, row) => {
      // Act
      const check = row.set.check({ name: row.name, arguments: row.sent }, policy);

      // Assess
      expect(check.repairs).toEqual([]);
      expect(check.ok ? [] : summary(check.issues)).toEqual(
        row.issues.map(([code, parameter, message]) => [
          code,
          parameter,
          expect.stringMatching(message),
        ]),
      );
    });
  },
);
