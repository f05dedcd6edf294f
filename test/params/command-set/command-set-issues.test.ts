import { describe, expect, it } from 'vitest';
import { type CommandSetSource, compileCommandSet } from '../../../shared/params';
import { clientTool, typedCommand } from '../support/command-sets';

interface IssueCase {
  readonly source: CommandSetSource;
  readonly reserved?: readonly string[];
  readonly issues: readonly { code: string; command: string; parameter: string | null }[];
}

const ISSUE_CASES: readonly [string, IssueCase][] = [
  [
    'an unknown type string',
    {
      source: { available_commands: [typedCommand('a', [{ name: 'n', type: 'number' }])] },
      issues: [{ code: 'unknown_type', command: 'a', parameter: 'n' }],
    },
  ],
  [
    'a nested array type',
    {
      source: { available_commands: [typedCommand('a', [{ name: 'n', type: 'int[][]' }])] },
      issues: [{ code: 'unknown_type', command: 'a', parameter: 'n' }],
    },
  ],
  [
    'a missing type',
    {
      source: { available_commands: [typedCommand('a', [{ name: 'n' }])] },
      issues: [{ code: 'unknown_type', command: 'a', parameter: 'n' }],
    },
  ],
  [
    'two commands of one name',
    {
      source: { available_commands: [typedCommand('a', []), typedCommand('a', [])] },
      issues: [{ code: 'duplicate_name', command: 'a', parameter: null }],
    },
  ],
  [
    'two client tools of one name',
    {
      source: {
        client_tools: [clientTool('a', { type: 'object' }), clientTool('a', { type: 'object' })],
      },
      issues: [{ code: 'duplicate_name', command: 'a', parameter: null }],
    },
  ],
  [
    'two parameters of one name',
    {
      source: {
        available_commands: [
          typedCommand('a', [
            { name: 'n', type: 'int' },
            { name: 'n', type: 'str' },
          ]),
        ],
      },
      issues: [{ code: 'duplicate_name', command: 'a', parameter: 'n' }],
    },
  ],
  [
    'tool names that break the pattern',
    {
      source: {
        available_commands: [typedCommand('get weather', []), typedCommand('x'.repeat(65), [])],
        client_tools: [
          clientTool('', { type: 'object' }),
          clientTool('get.time', { type: 'object' }),
        ],
      },
      issues: [
        { code: 'invalid_tool_name', command: 'get weather', parameter: null },
        { code: 'invalid_tool_name', command: 'x'.repeat(65), parameter: null },
        { code: 'invalid_tool_name', command: '', parameter: null },
        { code: 'invalid_tool_name', command: 'get.time', parameter: null },
      ],
    },
  ],
  [
    'a server tool name',
    {
      source: { client_tools: [clientTool('resolve_relative_date', { type: 'object' })] },
      reserved: ['resolve_relative_date', 'request_validation'],
      issues: [{ code: 'reserved_name', command: 'resolve_relative_date', parameter: null }],
    },
  ],
  [
    'a client schema that is not a JSON Schema',
    {
      source: {
        client_tools: [clientTool('a', { type: 'object', properties: { n: { type: 'strin' } } })],
      },
      issues: [{ code: 'schema_does_not_compile', command: 'a', parameter: null }],
    },
  ],
  [
    'a client schema with a bad regular expression',
    {
      source: {
        client_tools: [
          clientTool('a', { type: 'object', properties: { n: { type: 'string', pattern: '((' } } }),
        ],
      },
      issues: [{ code: 'schema_does_not_compile', command: 'a', parameter: null }],
    },
  ],
  [
    'a client schema with a reference that resolves nowhere',
    {
      source: {
        client_tools: [
          clientTool('a', { type: 'object', properties: { n: { $ref: '#/$defs/missing' } } }),
        ],
      },
      issues: [{ code: 'schema_does_not_compile', command: 'a', parameter: null }],
    },
  ],
  [
    'typed int against client string',
    {
      source: {
        available_commands: [typedCommand('a', [{ name: 'n', type: 'int' }])],
        client_tools: [clientTool('a', { type: 'object', properties: { n: { type: 'string' } } })],
      },
      issues: [{ code: 'type_conflict', command: 'a', parameter: 'n' }],
    },
  ],
  [
    'typed array<datetime> against client integer items',
    {
      source: {
        available_commands: [typedCommand('a', [{ name: 'n', type: 'array<datetime>' }])],
        client_tools: [
          clientTool('a', {
            type: 'object',
            properties: { n: { type: 'array', items: { type: 'integer' } } },
          }),
        ],
      },
      issues: [{ code: 'type_conflict', command: 'a', parameter: 'n' }],
    },
  ],
  [
    'typed datetime against client format date',
    {
      source: {
        available_commands: [typedCommand('a', [{ name: 'n', type: 'datetime' }])],
        client_tools: [
          clientTool('a', {
            type: 'object',
            properties: { n: { type: 'string', format: 'date' } },
          }),
        ],
      },
      issues: [{ code: 'type_conflict', command: 'a', parameter: 'n' }],
    },
  ],
  [
    'malformed definitions',
    {
      source: {
        available_commands: [
          'set_timer',
          { description: 'no name' },
          typedCommand('a', [], { parameters: 'none' }),
          typedCommand('b', [{ name: 'n', type: 'int', required: 'yes' }]),
          typedCommand('c', [{ name: 'n', type: 'int', enum_values: [1, 2] }]),
          typedCommand('d', [{ name: 'n', type: 'dict', enum_values: ['x'] }]),
          typedCommand('e', [{ type: 'int' }]),
        ],
        client_tools: [{ type: 'function' }, clientTool('f', { type: 'array' })],
      },
      issues: [
        { code: 'invalid_definition', command: 'available_commands[0]', parameter: null },
        { code: 'invalid_definition', command: 'available_commands[1]', parameter: null },
        { code: 'invalid_definition', command: 'a', parameter: null },
        { code: 'invalid_definition', command: 'b', parameter: 'n' },
        { code: 'invalid_definition', command: 'c', parameter: 'n' },
        { code: 'invalid_definition', command: 'd', parameter: 'n' },
        { code: 'invalid_definition', command: 'e', parameter: null },
        { code: 'invalid_definition', command: 'client_tools[0]', parameter: null },
        { code: 'invalid_definition', command: 'f', parameter: null },
      ],
    },
  ],
  [
    'a list field that is not a list',
    {
      source: { available_commands: {} as unknown as unknown[] },
      issues: [{ code: 'invalid_definition', command: 'available_commands', parameter: null }],
    },
  ],
  [
    'several problems at once',
    {
      source: {
        available_commands: [
          typedCommand('a', [{ name: 'n', type: 'nope' }]),
          typedCommand('b c', [{ name: 'm', type: 'int' }]),
        ],
        client_tools: [
          clientTool('b c', { type: 'object', properties: { m: { type: 'boolean' } } }),
        ],
      },
      issues: [
        { code: 'unknown_type', command: 'a', parameter: 'n' },
        { code: 'invalid_tool_name', command: 'b c', parameter: null },
        { code: 'type_conflict', command: 'b c', parameter: 'm' },
      ],
    },
  ],
];

describe('compileCommandSet issues', () => {
  it.each(ISSUE_CASES)('reports %s', (_name, { source, reserved, issues }) => {
    // Act
    const compiled = compileCommandSet(
      source,
      reserved === undefined ? {} : { reservedNames: reserved },
    );

    // Assess
    expect(compiled.ok).toBe(false);
    const found = compiled.ok ? [] : compiled.issues;
    expect(found.map(({ code, command, parameter }) => ({ code, command, parameter }))).toEqual(
      issues,
    );
    for (const issue of found) expect(issue.message.length).toBeGreaterThan(10);
  });

  it('quotes the bad type string and names the command and parameter', () => {
    // Act
    const compiled = compileCommandSet({
      available_commands: [typedCommand('lights', [{ name: 'level', type: 'percent' }])],
    });

    // Assess
    expect(compiled.ok ? '' : compiled.issues[0]?.message).toMatch(/^lights\.level: .*"percent"/);
  });

  it('ignores unknown extra fields everywhere', () => {
    // Prepare
    const command = typedCommand(
      'a',
      [{ name: 'n', type: 'int', options_source: 'x', colour: 1 }],
      {
        is_risky: true,
      },
    );
    const tool = clientTool(
      'a',
      { type: 'object', properties: {} },
      { is_risky: true, anything: [1] },
    );

    // Act
    const compiled = compileCommandSet({ available_commands: [command], client_tools: [tool] });

    // Assess
    expect(compiled.ok).toBe(true);
  });
});
