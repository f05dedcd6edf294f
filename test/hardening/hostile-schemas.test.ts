import { describe, expect, it } from 'vitest';
import { buildRetryMessage } from '../../shared/params';
import { SCHEMA_LIMITS } from '../../shared/params/limits/limits';
import {
  type SchemaLimits,
  schemaLimitProblems,
} from '../../shared/params/limits/schema-limit-problems';
import { compileOrThrow, loadFixture } from '../params/support/command-sets';
import { runHostileSchemaCase } from './hostile-schema-case';
import { HOSTILE_SCHEMA_CASES } from './hostile-schema-cases';

// Before the limits, rows 1 and 10 ran for 30 s and more (past the test timeout), rows 2 and 9
// compiled, row 3 was accepted after 2.25 s, and the deep registration threw. Time is measured in
// `npm run bench` (bench/params-hostile.ts), never here.
describe('hostile schemas and arguments (issue 10)', () => {
  it.each(HOSTILE_SCHEMA_CASES.map((hostile) => [hostile.name, hostile] as const))(
    '%s',
    (_name, hostile) => {
      // Act
      const { outcome, messages } = runHostileSchemaCase(hostile);

      // Assess
      expect(outcome).toEqual(hostile.expected);
      for (const message of messages) expect(message).toMatch(/^probe|^client_tools\[0\]/);
    },
  );

  it('names the limit, its value, the command and where in the schema', () => {
    // Prepare
    const hostile = HOSTILE_SCHEMA_CASES.find(({ name }) => name.includes('anyOf of 100'));
    if (hostile === undefined) throw new Error('the anyOf case is missing');

    // Act
    const { messages } = runHostileSchemaCase(hostile);

    // Assess
    expect(messages).toEqual([
      'probe: the parameters schema breaks the limit combinatorBranches = 16 at #/properties/v/anyOf: 100 branches',
    ]);
  });

  it('tells the model what was too large in its retry message', () => {
    // Prepare
    const set = compileOrThrow({
      available_commands: [{ command_name: 'probe', parameters: [{ name: 'xs', type: 'array' }] }],
    });
    const check = set.check(
      { name: 'probe', arguments: { xs: new Array(300).fill(1) } },
      'lossless',
    );

    // Act
    const message = buildRetryMessage(check.ok ? [] : check.issues, ['probe']);

    // Assess
    expect(message).toContain(
      '- probe.xs: the arguments are too large: send arrays of at most 256 items; got an array of 300 items.',
    );
  });
});

describe('the real node registration and the limits', () => {
  it('compiles', () => {
    // Act
    const set = compileOrThrow(loadFixture());

    // Assess
    expect(set.commands.size).toBeGreaterThan(10);
  });

  it('stays within a third of every schema limit', () => {
    // Prepare
    const third = Object.fromEntries(
      Object.entries(SCHEMA_LIMITS).map(([name, value]) => [name, Math.floor(value / 3)]),
    ) as SchemaLimits;
    const schemas = loadFixture().client_tools.map(
      (entry) => (entry.function as Record<string, unknown>).parameters,
    );

    // Act
    const problems = schemas.flatMap((schema) => schemaLimitProblems(schema, third));

    // Assess
    expect(schemas.length).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
