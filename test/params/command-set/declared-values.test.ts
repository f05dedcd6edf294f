import { describe, expect, it } from 'vitest';
import { compileCommandSet } from '../../../shared/params';
import { probeSet, typedCommand } from '../support/command-sets';

// Issue 29, item 4: the node's SDK writes enum values and defaults with Python's str(). Each is
// read as its parameter's type, so the schema the model sees is satisfiable and typed.
describe('enum values and defaults as the node SDK writes them', () => {
  it.each([
    [
      'a float enum written by str()',
      { type: 'float', enum_values: ['1.0', '2.0', '2.5'] },
      { type: 'number', enum: [1, 2, 2.5] },
    ],
    [
      'a bool enum written by str()',
      { type: 'bool', enum_values: ['True', 'False'] },
      { type: 'boolean', enum: [true, false] },
    ],
    [
      'an int enum written "1.0"',
      { type: 'int', enum_values: ['1.0', '2'] },
      { type: 'integer', enum: [1, 2] },
    ],
    [
      'a float in exponent form',
      { type: 'float', enum_values: ['1e-05'] },
      { type: 'number', enum: [0.00001] },
    ],
    ['an int default "1"', { type: 'int', default: '1' }, { type: 'integer', default: 1 }],
    [
      'a float default "0.5"',
      { type: 'float', default_value: '0.5' },
      { type: 'number', default: 0.5 },
    ],
    [
      'a bool default "True"',
      { type: 'bool', default: 'True' },
      { type: 'boolean', default: true },
    ],
    ['a string default number', { type: 'string', default: 5 }, { type: 'string', default: '5' }],
    [
      'a datetime default written by str()',
      { type: 'datetime', default: '2026-01-18 05:00:00+00:00' },
      { type: 'string', format: 'date-time', default: '2026-01-18T05:00:00+00:00' },
    ],
    [
      'an int list default as JSON text',
      { type: 'array<int>', default: '[1, 2]' },
      { type: 'array', items: { type: 'integer' }, default: [1, 2] },
    ],
    [
      'a dict default as JSON text',
      { type: 'dict', default: '{"a": 1}' },
      { type: 'object', default: { a: 1 } },
    ],
  ])('%s', (_name, parameter, schema) => {
    // Act
    const set = probeSet([{ name: 'p', ...parameter }]);

    // Assess
    expect(set.tools[0]?.function.parameters.properties).toEqual({ p: schema });
  });

  it('accepts the value the model sends for a float enum written "1.0" (it was unsatisfiable)', () => {
    // Prepare
    const set = probeSet([
      { name: 'p', type: 'float', enum_values: ['1.0', '2.0'], required: true },
    ]);

    // Act
    const check = set.check({ name: 'probe', arguments: { p: 2 } }, 'strict');

    // Assess
    expect(check.ok).toBe(true);
  });

  it('accepts true for a bool enum written "True"', () => {
    const set = probeSet([{ name: 'p', type: 'bool', enum_values: ['True'], required: true }]);

    const check = set.check({ name: 'probe', arguments: { p: true } }, 'strict');

    expect(check.ok).toBe(true);
  });

  it('under strict, "2" for an int enum is told the values as numbers', () => {
    const set = probeSet([
      { name: 'p', type: 'int', enum_values: ['1', '2', '3'], required: true },
    ]);

    const check = set.check({ name: 'probe', arguments: { p: '2' } }, 'strict');

    expect(check.ok ? [] : check.issues.map((issue) => issue.message)).toEqual([
      'probe.p: expected one of 1, 2 or 3, got "2".',
    ]);
  });

  it('under strict, 4 for an int enum is told the values as numbers', () => {
    const set = probeSet([
      { name: 'p', type: 'int', enum_values: ['1', '2', '3'], required: true },
    ]);

    const check = set.check({ name: 'probe', arguments: { p: 4 } }, 'strict');

    expect(check.ok ? [] : check.issues.map((issue) => issue.message)).toEqual([
      'probe.p: expected one of 1, 2 or 3, got 4.',
    ]);
  });
});

describe('declarations no value can satisfy are refused, naming the value', () => {
  it.each([
    [
      'an int enum of words',
      { type: 'int', enum_values: ['one', 'two'] },
      'probe.p: enum_values[0]: "one" is not an integer',
    ],
    [
      'a float enum with "inf"',
      { type: 'float', enum_values: ['1.5', 'inf'] },
      'probe.p: enum_values[1]: "inf" is not a number',
    ],
    [
      'a bool enum of "yes"',
      { type: 'bool', enum_values: ['yes'] },
      'probe.p: enum_values[0]: "yes" is not a boolean',
    ],
    [
      'an int default "abc"',
      { type: 'int', default: 'abc' },
      'probe.p: default "abc" is not an integer',
    ],
    ['an int default 1.5', { type: 'int', default: 1.5 }, 'probe.p: default 1.5 is not an integer'],
    [
      'a date enum that is no date',
      { type: 'date', enum_values: ['tomorrow'] },
      'probe.p: enum_values[0]: "tomorrow" is not a date',
    ],
    [
      'a duration default from Python',
      { type: 'timedelta', default: '1:30:00' },
      'probe.p: default "1:30:00" is not an ISO-8601 duration',
    ],
    [
      'an int list default of words',
      { type: 'array<int>', default: '["a"]' },
      'probe.p: default item 0: "a" is not an integer',
    ],
    [
      'a dict default that is a list',
      { type: 'dict', default: [1] },
      'probe.p: default [1] is not a JSON object',
    ],
  ])('%s', (_name, parameter, message) => {
    // Act
    const compiled = compileCommandSet({
      available_commands: [typedCommand('probe', [{ name: 'p', ...parameter }])],
    });

    // Assess
    expect(compiled.ok).toBe(false);
    const issues = compiled.ok ? [] : compiled.issues;
    expect(issues).toEqual([
      {
        code: 'invalid_definition',
        command: 'probe',
        parameter: 'p',
        message: expect.stringContaining(message),
      },
    ]);
  });
});
