import { describe, expect, it } from 'vitest';
import {
  argumentsNotObjectIssue,
  buildRetryMessage,
  checkEntityArgument,
  knownEntities,
  type NormalizationPolicy,
  type ValidationIssue,
} from '../../../shared/params';
import { probeSet } from '../support/command-sets';

const set = probeSet([
  { name: 'on', type: 'date', required: true },
  { name: 'span', type: 'timedelta' },
  { name: 'count', type: 'int' },
  { name: 'mode', type: 'string', enum_values: ['eco', 'boost'] },
  { name: 'label', type: 'string' },
  { name: 'xs', type: 'array' },
]);
const ON = '2026-01-18';

function issuesOf(
  args: unknown,
  name = 'probe',
  policy: NormalizationPolicy = 'lossless',
): readonly ValidationIssue[] {
  const check = set.check({ name, arguments: args }, policy);
  return check.ok ? [] : check.issues;
}

/** The issue of an `entity_id` the node's device list does not hold. */
function unknownEntity(entityId: string): readonly ValidationIssue[] {
  const entities = knownEntities(['light.office', 'light.office_lamp', 'switch.kettle'], true);
  const check = checkEntityArgument('probe', { entity_id: entityId }, entities, 'lossless');
  return check.ok ? [] : check.issues;
}

// One row per wording: the issue's message is the only text of its code.
describe.each<[string, readonly ValidationIssue[], string]>([
  [
    'unknown_tool',
    issuesOf({}, 'nope'),
    'nope: there is no tool with this name. Call one of: probe.',
  ],
  [
    'arguments_too_large',
    issuesOf({ on: ON, xs: new Array(300).fill(1) }),
    'probe.xs: the arguments are too large: send arrays of at most 256 items; got an array of 300 items.',
  ],
  [
    'unknown_entity',
    unknownEntity('light.ofice'),
    'probe.entity_id: "light.ofice" is not in the device list; expected an entity_id from the device list. Closest: light.office, light.office_lamp.',
  ],
  [
    'arguments_not_object',
    issuesOf([ON]),
    'probe: the arguments must be one JSON object of named parameters, got ["2026-01-18"].',
  ],
  [
    'arguments_not_object',
    [argumentsNotObjectIssue('probe', '{"on":', 'the text ends where a value is expected')],
    'probe: the arguments must be one JSON object of named parameters (not valid JSON: the text ends where a value is expected), got "{\\"on\\":".',
  ],
  [
    'unknown_parameter',
    issuesOf({ on: ON, day: ON }),
    'probe.day: probe has no parameter named "day". Its parameters are: on, span, count, mode, label, xs.',
  ],
  [
    'missing_parameter',
    issuesOf({}),
    'probe.on: this required parameter is missing; expected an ISO-8601 calendar date YYYY-MM-DD (e.g. 2026-01-18). Call resolve_relative_date to get one.',
  ],
  [
    'missing_parameter',
    issuesOf({ on: 'None' }),
    'probe.on: this required parameter needs a real value; expected an ISO-8601 calendar date YYYY-MM-DD (e.g. 2026-01-18), got "None". Call resolve_relative_date to get one.',
  ],
  [
    'not_in_enum',
    issuesOf({ on: ON, mode: 'turbo' }),
    'probe.mode: expected one of "eco" or "boost", got "turbo".',
  ],
  [
    'constraint',
    issuesOf({ on: ON, label: 'None' }, 'probe', 'strict'),
    'probe.label: must be a real value; leave the parameter out when there is none, got "None".',
  ],
  [
    'wrong_type',
    issuesOf({ on: ON, count: 'five' }),
    'probe.count: expected an integer, got "five".',
  ],
  [
    'invalid_format',
    issuesOf({ on: 'tomorrow' }),
    'probe.on: expected an ISO-8601 calendar date YYYY-MM-DD (e.g. 2026-01-18), got "tomorrow". Call resolve_relative_date to get one.',
  ],
  [
    'invalid_format',
    issuesOf({ on: ON, span: 'an hour' }),
    'probe.span: expected an ISO-8601 duration (e.g. PT90M or P1DT2H), got "an hour".',
  ],
])('the message of %s', (code, issues, message) => {
  it(`reads: ${message}`, () => {
    expect(issues.map((issue) => [issue.code, issue.message])).toEqual([[code, message]]);
  });

  it('is the line of the retry message', () => {
    // Act
    const retry = buildRetryMessage(issues, []);

    // Assess
    expect(retry.split('\n').slice(1, -1)).toEqual([`- ${message}`]);
  });
});
