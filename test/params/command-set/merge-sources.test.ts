import { describe, expect, it } from 'vitest';
import type { ParameterType } from '../../../shared/params';
import { clientTool, compileOrThrow, typedCommand } from '../support/command-sets';

describe('a typed command merged with its client tool', () => {
  const set = compileOrThrow({
    available_commands: [
      typedCommand(
        'timer',
        [
          { name: 'seconds', type: 'int', required: true, description: 'typed words' },
          { name: 'email', type: 'string' },
          { name: 'when', type: 'array<datetime>' },
          { name: 'unit', type: 'string' },
        ],
        { allow_direct_answer: null, description: null },
      ),
    ],
    client_tools: [
      clientTool(
        'timer',
        {
          type: 'object',
          properties: {
            seconds: { type: 'number', minimum: 1, description: 'client words' },
            email: { type: 'string', format: 'email', maxLength: 40 },
            when: { type: 'array', minItems: 1, items: { type: 'string', format: 'date-time' } },
            unit: { type: 'string', enum: ['s', 'min'] },
            note: { type: 'string' },
          },
          required: ['unit'],
        },
        { allow_direct_answer: true },
      ),
    ],
  });
  const spec = set.commands.get('timer');
  const property = (name: string) => spec?.parameters.find((parameter) => parameter.name === name);

  it('lets the typed side decide type and description, and keeps the client constraints', () => {
    // Assess
    expect(property('seconds')?.schema).toEqual({
      type: 'integer',
      description: 'typed words',
      minimum: 1,
    });
    expect(property('email')?.schema).toEqual({ type: 'string', format: 'email', maxLength: 40 });
    expect(property('when')?.schema).toEqual({
      type: 'array',
      items: { type: 'string', format: 'date-time' },
      minItems: 1,
    });
  });

  it('takes the enum of the client when the typed side has none', () => {
    // Assess
    expect(property('unit')).toMatchObject({
      enumValues: ['s', 'min'],
      schema: { type: 'string', enum: ['s', 'min'] },
    });
  });

  it('keeps properties only the client names, after the typed ones, and requires what either side requires', () => {
    // Assess
    expect(spec?.parameters.map((parameter) => [parameter.name, parameter.required])).toEqual([
      ['seconds', true],
      ['email', false],
      ['when', false],
      ['unit', true],
      ['note', false],
    ]);
    expect(spec?.tool.function.parameters.required).toEqual(['seconds', 'unit']);
  });

  it('takes the client description and allow_direct_answer where the command gives none', () => {
    // Assess
    expect(spec?.description).toBe('timer client description');
    expect(spec?.allowDirectAnswer).toBe(true);
  });

  it.each([
    [{ seconds: 0, unit: 's' }, 'seconds', 'constraint'],
    [{ seconds: 5, unit: 's', email: 'not an address' }, 'email', 'invalid_format'],
    [{ seconds: 5, unit: 's', when: [] }, 'when', 'constraint'],
    [{ seconds: 5, unit: 'hours' }, 'unit', 'not_in_enum'],
    [{ seconds: 5, unit: 's', note: 7 }, 'note', 'wrong_type'],
  ])('checks %j against both sides', (args, parameter, code) => {
    // Act
    const check = set.check({ name: 'timer', arguments: args }, 'strict');

    // Assess
    expect(check.ok ? [] : check.issues.map((issue) => [issue.parameter, issue.code])).toEqual([
      [parameter, code],
    ]);
  });

  it('accepts what both sides accept', () => {
    // Act
    const check = set.check(
      {
        name: 'timer',
        arguments: { seconds: 5, unit: 'min', email: 'a@b.co', when: ['2026-01-18T05:00:00Z'] },
      },
      'strict',
    );

    // Assess
    expect(check.ok).toBe(true);
  });

  it('prefers the command allow_direct_answer when it is set', () => {
    // Act
    const merged = compileOrThrow({
      available_commands: [typedCommand('a', [], { allow_direct_answer: false })],
      client_tools: [clientTool('a', { type: 'object' }, { allow_direct_answer: true })],
    });

    // Assess
    expect(merged.commands.get('a')?.allowDirectAnswer).toBe(false);
  });
});

describe('a client tool alone', () => {
  const set = compileOrThrow({
    client_tools: [
      clientTool('lamp', {
        type: 'object',
        properties: {
          level: { type: 'integer' },
          ratio: { type: 'number' },
          on: { type: 'boolean' },
          name: { type: 'string', format: 'email' },
          day: { type: 'string', format: 'date' },
          at: { type: 'string', format: 'date-time' },
          clock: { type: 'string', format: 'time' },
          span: { type: 'string', format: 'duration' },
          moments: { type: 'array', items: { type: 'string', format: 'date-time' } },
          anything: { type: 'array' },
          shapes: { type: 'array', items: { type: 'object' } },
          settings: { type: 'object', properties: { lat: { type: 'number' } } },
          either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
          nullable: { type: ['string', 'null'] },
        },
      }),
    ],
  });

  it.each<[string, ParameterType | null]>([
    ['level', { kind: 'scalar', scalar: 'int' }],
    ['ratio', { kind: 'scalar', scalar: 'float' }],
    ['on', { kind: 'scalar', scalar: 'bool' }],
    ['name', { kind: 'scalar', scalar: 'string' }],
    ['day', { kind: 'scalar', scalar: 'date' }],
    ['at', { kind: 'scalar', scalar: 'datetime' }],
    ['clock', { kind: 'scalar', scalar: 'time' }],
    ['span', { kind: 'scalar', scalar: 'timedelta' }],
    ['moments', { kind: 'array', items: 'datetime' }],
    ['anything', { kind: 'array', items: null }],
    ['shapes', { kind: 'array', items: null }],
    ['settings', { kind: 'dict' }],
    ['either', null],
    ['nullable', null],
  ])('derives the type of %s where it maps one to one', (name, type) => {
    // Act
    const parameter = set.commands
      .get('lamp')
      ?.parameters.find((candidate) => candidate.name === name);

    // Assess
    expect(parameter?.type).toEqual(type);
  });

  // Issue 29, item 5: JSON Schema allows a property it does not name unless it says otherwise.
  it('renders the client schema unchanged and, as JSON Schema, allows a property it does not name', () => {
    // Act
    const check = set.check({ name: 'lamp', arguments: { level: 1, colour: 'red' } }, 'lossless');

    // Assess
    expect(set.tools[0]?.function.parameters.properties).toMatchObject({
      settings: { type: 'object', properties: { lat: { type: 'number' } } },
    });
    expect(check).toEqual({ ok: true, arguments: { level: 1, colour: 'red' }, repairs: [] });
  });

  it('gets the same repairs as a typed command', () => {
    // Act
    const check = set.check(
      { name: 'lamp', arguments: { level: '5', moments: '2026-01-18t05:00:00z', nullable: null } },
      'lossless',
    );

    // Assess
    expect(check).toMatchObject({
      ok: true,
      arguments: { level: 5, moments: ['2026-01-18T05:00:00Z'], nullable: null },
    });
  });

  it.each([
    [
      'a client tool with additionalProperties: false',
      {
        client_tools: [
          clientTool('t', { type: 'object', properties: {}, additionalProperties: false }),
        ],
      },
    ],
    ['a typed command', { available_commands: [typedCommand('t', [])] }],
    [
      'a typed command with a client schema that says nothing of other properties',
      {
        available_commands: [typedCommand('t', [])],
        client_tools: [clientTool('t', { type: 'object', properties: {} })],
      },
    ],
  ])('refuses a parameter %s does not declare (a retry)', (_name, source) => {
    // Act
    const closed = compileOrThrow(source);
    const check = closed.check({ name: 't', arguments: { anything: 1 } }, 'lenient');

    // Assess
    expect(closed.commands.get('t')?.allowsExtraParameters).toBe(false);
    expect(check.ok ? [] : check.issues.map((issue) => issue.code)).toEqual(['unknown_parameter']);
  });

  it('allows extra parameters only when its schema says so', () => {
    // Prepare
    const open = compileOrThrow({
      client_tools: [
        clientTool('open', { type: 'object', properties: {}, additionalProperties: true }),
      ],
    });

    // Act
    const check = open.check({ name: 'open', arguments: { anything: 1 } }, 'strict');

    // Assess
    expect(open.commands.get('open')?.allowsExtraParameters).toBe(true);
    expect(check.ok).toBe(true);
  });

  it('accepts a schema that names another meta-schema and resolves its own references', () => {
    // Prepare
    const source = {
      client_tools: [
        clientTool('zoned', {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { zone: { $ref: '#/$defs/zone' } },
          $defs: { zone: { type: 'string', enum: ['home', 'away'] } },
        }),
      ],
    };

    // Act
    const zoned = compileOrThrow(source);
    const checks = ['home', 'moon'].map(
      (zone) => zoned.check({ name: 'zoned', arguments: { zone } }, 'strict').ok,
    );

    // Assess
    expect(checks).toEqual([true, false]);
    expect(zoned.tools[0]?.function.parameters).toHaveProperty('$defs');
  });
});
