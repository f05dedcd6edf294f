import { describe, expect, it } from 'vitest';
import { compileOrThrow, loadFixture, probeSet } from '../support/command-sets';

// The mapping table of api.md, written out for every type string the fixture uses.
const MAPPING_TABLE: Readonly<Record<string, Record<string, unknown>>> = {
  string: { type: 'string' },
  int: { type: 'integer' },
  float: { type: 'number' },
  time: { type: 'string', format: 'time' },
  'array<datetime>': { type: 'array', items: { type: 'string', format: 'date-time' } },
  'array[datetime]': { type: 'array', items: { type: 'string', format: 'date-time' } },
  'datetime[]': { type: 'array', items: { type: 'string', format: 'date-time' } },
};

interface FixtureParameter {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string | null;
  readonly enum_values: string[] | null;
  readonly default_value: unknown;
  readonly refinable?: boolean;
}

function expectedProperty(parameter: FixtureParameter): Record<string, unknown> {
  const base = MAPPING_TABLE[parameter.type];
  if (base === undefined) throw new Error(`no table row for ${parameter.type}`);
  return {
    ...base,
    ...(parameter.description === null ? {} : { description: parameter.description }),
    ...(parameter.enum_values === null ? {} : { enum: parameter.enum_values }),
    ...(parameter.default_value === null ? {} : { default: parameter.default_value }),
    ...(parameter.refinable === true ? { _refinable: true } : {}),
  };
}

describe('the OpenAI tools of the real node registration', () => {
  const fixture = loadFixture();
  const set = compileOrThrow(loadFixture());

  it.each(fixture.available_commands.map((command) => [command.command_name, command]))(
    '%s renders the schema the mapping table says',
    (name, command) => {
      // Prepare
      const parameters = command.parameters as FixtureParameter[];

      // Act
      const tool = set.tools.find((candidate) => candidate.function.name === name);

      // Assess
      expect(tool).toEqual({
        type: 'function',
        function: {
          name,
          description: command.description,
          parameters: {
            type: 'object',
            properties: Object.fromEntries(
              parameters.map((parameter) => [parameter.name, expectedProperty(parameter)]),
            ),
            // An empty `required` is left out: it says nothing and costs every request.
            ...requiredOf(parameters),
          },
        },
      });
    },
  );

  it('renders get_weather as the model should see it', () => {
    // Act
    const tool = set.tools.find((candidate) => candidate.function.name === 'get_weather');

    // Assess
    expect(tool?.function.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name. Omit for the default location.' },
        resolved_datetimes: {
          type: 'array',
          items: { type: 'string', format: 'date-time' },
          description: 'Target dates',
        },
      },
      required: ['resolved_datetimes'],
    });
  });

  it('exposes each rendered property on its parameter spec', () => {
    // Act
    const music = set.commands.get('music');

    // Assess
    expect(music?.parameters.map((parameter) => parameter.schema)).toEqual(
      Object.values(music?.tool.function.parameters.properties ?? {}),
    );
  });
});

describe('rendering enums, defaults and refinable parameters', () => {
  const set = probeSet([
    { name: 'level', type: 'int', enum_values: ['1', '2', '3'], default: 2 },
    { name: 'ratio', type: 'float', enum_values: ['0.5', '1'] },
    { name: 'on', type: 'bool', enum_values: ['true'] },
    { name: 'tags', type: 'array<string>', enum_values: ['a', 'b'] },
    { name: 'loose', type: 'list', enum_values: ['x'] },
    { name: 'mode', type: 'string', default_value: 'eco', refinable: true, description: 'How' },
    { name: 'none', type: 'string', default_value: null, enum_values: null, description: null },
    { name: 'when', type: 'date', default: null, default_value: '2026-01-18' },
  ]);
  const properties = set.tools[0]?.function.parameters.properties;

  it.each([
    ['level', { type: 'integer', enum: [1, 2, 3], default: 2 }],
    ['ratio', { type: 'number', enum: [0.5, 1] }],
    ['on', { type: 'boolean', enum: [true] }],
    ['tags', { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }],
    ['loose', { type: 'array', items: { enum: ['x'] } }],
    ['mode', { type: 'string', description: 'How', default: 'eco', _refinable: true }],
    ['none', { type: 'string' }],
    ['when', { type: 'string', format: 'date', default: '2026-01-18' }],
  ])('renders %s', (name, schema) => {
    // Assess
    expect(properties).toHaveProperty([name], schema);
  });

  it('compares enum values as strings, item by item for arrays', () => {
    // Act
    const valid = set.check(
      { name: 'probe', arguments: { level: 2, ratio: 0.5, tags: ['b', 'a'], loose: ['x'] } },
      'strict',
    );
    const invalid = set.check(
      { name: 'probe', arguments: { level: 4, tags: ['a', 'c', 'd'], loose: ['x', 1] } },
      'strict',
    );

    // Assess
    expect(valid.ok).toBe(true);
    expect(
      invalid.ok
        ? []
        : invalid.issues.map((issue) => [issue.code, issue.parameter, issue.received]),
    ).toEqual([
      ['not_in_enum', 'level', 4],
      ['not_in_enum', 'tags[1]', 'c'],
      ['not_in_enum', 'tags[2]', 'd'],
      ['not_in_enum', 'loose[1]', 1],
    ]);
  });
});

function requiredOf(parameters: readonly { name: string; required: boolean }[]) {
  const names = parameters.filter((parameter) => parameter.required).map((item) => item.name);
  return names.length === 0 ? {} : { required: names };
}
