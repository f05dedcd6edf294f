import { describe, expect, it } from 'vitest';
import { compileCommandSet } from '../../../shared/params';
import { costBound } from '../../../shared/params/limits/cost-bound';
import { SCHEMA_LIMITS } from '../../../shared/params/limits/limits';
import { MUST_CALL_COMMANDS, PROBE_COMMANDS } from '../../support/probe-commands';
import { clientTool, compileOrThrow, loadFixture } from '../support/command-sets';

const costliest = (source: Parameters<typeof compileOrThrow>[0]) =>
  Math.max(
    ...compileOrThrow(source).tools.map((tool) => costBound(tool.function.parameters).stepsPerByte),
  );

describe('the cost bound of a command set, proven at start (issue 18 item 1)', () => {
  it.each([
    ['the real node', loadFixture()],
    ['the probe commands', PROBE_COMMANDS],
    ['the must-call commands', MUST_CALL_COMMANDS],
  ] as const)('%s stays far below the budget (a tenth of it)', (_name, source) => {
    // Act
    const steps = costliest(source);

    // Assess
    expect(steps).toBeGreaterThan(0);
    expect(steps).toBeLessThan(SCHEMA_LIMITS.stepsPerByte / 10);
  });

  it('adds up subschemas applied to one value, and takes the costliest property', () => {
    // Arrange
    const leaf = { type: 'string', pattern: '^[a-z]{0,20}$' };
    const one = costBound({ type: 'object', properties: { a: leaf } }).stepsPerByte;

    // Act
    const twoProperties = costBound({ type: 'object', properties: { a: leaf, b: leaf } });
    const twoBranches = costBound({ type: 'object', properties: { a: { allOf: [leaf, leaf] } } });

    // Assess: another property is another value (the costliest counts), a branch is the same one.
    expect(twoProperties.stepsPerByte).toBe(one);
    expect(twoBranches.stepsPerByte).toBeGreaterThan(2 * one - 10);
  });

  it('a cycle through $ref on the same value is unbounded', () => {
    // Act
    const bound = costBound({
      definitions: { a: { anyOf: [{ $ref: '#/definitions/a' }] } },
      $ref: '#/definitions/a',
    });

    // Assess
    expect(bound.stepsPerByte).toBe(Number.POSITIVE_INFINITY);
  });

  it('over the budget: a 400 at start naming the command, where and what multiplied', () => {
    // Arrange
    const branches = Array.from({ length: 16 }, () => ({ type: 'array', uniqueItems: true }));

    // Act
    const compiled = compileCommandSet({
      client_tools: [
        clientTool('probe', { type: 'object', properties: { a: { allOf: branches } } }),
      ],
    });

    // Assess
    expect(compiled.ok).toBe(false);
    const [message] = compiled.ok ? [] : compiled.issues.map((issue) => issue.message);
    expect(message).toMatch(
      /^probe: the parameters schema breaks the limit stepsPerByte = 200 at #\/properties\/a: /,
    );
    expect(message).toContain('16 subschemas applied to the same value');
    expect(message).toContain('uniqueItems');
  });
});
