import { describe, expect, it } from 'vitest';
import { call, compile, reply } from '../../support/engine-fixtures';
import { PROBE_COMMANDS } from '../../support/probe-commands';
import { runStep } from '../../support/step-fixture';

const commandSet = compile(PROBE_COMMANDS);

/** llm-failure-modes.md, "Argument shape": what comes out under lossless and strict. */
const ROWS: readonly {
  row: string;
  args: Record<string, unknown>;
  lossless: Record<string, unknown> | 'retry';
  strict: Record<string, unknown> | 'retry';
}[] = [
  {
    row: 'a JSON-encoded list for array<datetime>',
    args: { when: '["2026-01-18T05:00:00Z"]' },
    lossless: { when: ['2026-01-18T05:00:00Z'] },
    strict: 'retry',
  },
  {
    row: 'a JSON-encoded object for dict',
    args: { where: '{"lat": 1}' },
    lossless: { where: { lat: 1 } },
    strict: 'retry',
  },
  { row: '"5" for int', args: { count: '5' }, lossless: { count: 5 }, strict: 'retry' },
  { row: '"5.0" for int', args: { count: '5.0' }, lossless: { count: 5 }, strict: 'retry' },
  { row: '"5.5" for int', args: { count: '5.5' }, lossless: 'retry', strict: 'retry' },
  { row: '"2.5" for float', args: { ratio: '2.5' }, lossless: { ratio: 2.5 }, strict: 'retry' },
  {
    row: '"true" for bool',
    args: { enabled: 'true' },
    lossless: { enabled: true },
    strict: 'retry',
  },
  {
    row: '"False" for bool',
    args: { enabled: 'False' },
    lossless: { enabled: false },
    strict: 'retry',
  },
  {
    row: 'one value for array<datetime>',
    args: { when: '2026-01-18T05:00:00Z' },
    lossless: { when: ['2026-01-18T05:00:00Z'] },
    strict: 'retry',
  },
  ...['null', 'None', 'none', 'default', ''].map((placeholder) => ({
    row: `"${placeholder}" for an optional parameter`,
    args: { count: placeholder },
    lossless: {},
    strict: 'retry' as const,
  })),
  { row: 'null for an optional parameter', args: { count: null }, lossless: {}, strict: {} },
  { row: '"yes" for bool', args: { enabled: 'yes' }, lossless: 'retry', strict: 'retry' },
  { row: '1 for bool', args: { enabled: 1 }, lossless: 'retry', strict: 'retry' },
];

/*
 * Placeholders are tried on an int parameter: for a string parameter "None" is a valid string,
 * and a valid value is never changed.
 */
describe('step: argument shape (llm-failure-modes.md)', () => {
  describe.each(['lossless', 'strict'] as const)('policy %s', (policy) => {
    it.each(ROWS)('$row', ({ args, ...expected }) => {
      // Prepare
      const want = expected[policy];
      const valid = { count: 1 };
      const replies =
        want === 'retry'
          ? [reply(null, [call('probe', args)]), reply(null, [call('probe', valid, 'call_fixed')])]
          : [reply(null, [call('probe', args)])];

      // Act
      const { outcome } = runStep(replies, { commandSet, settings: { normalization: policy } });

      // Assess
      expect(outcome.stopReason).toBe('tool_calls');
      expect(outcome.modelCalls).toBe(want === 'retry' ? 2 : 1);
      const sent = JSON.parse(outcome.toolCalls[0]?.arguments ?? 'null');
      expect(sent).toEqual(want === 'retry' ? valid : want);
      if (want !== 'retry' && JSON.stringify(want) !== JSON.stringify(args)) {
        expect(outcome.repairs.length).toBeGreaterThan(0);
      }
      if (want === 'retry') expect(outcome.retries).toHaveLength(1);
    });
  });

  it('the same placeholders for a required parameter are a retry (missing)', () => {
    const { outcome } = runStep(
      [
        reply(null, [call('needs', { amount: 'None' })]),
        reply(null, [call('needs', { amount: 3 })]),
      ],
      { commandSet },
    );
    expect(outcome.modelCalls).toBe(2);
    expect(outcome.retries[0]?.issues[0]?.parameter).toBe('amount');
  });

  it('lenient maps "yes" and 1 to true and records the repair', () => {
    const { outcome } = runStep([reply(null, [call('probe', { enabled: 'yes' })])], {
      commandSet,
      settings: { normalization: 'lenient' },
    });
    expect(JSON.parse(outcome.toolCalls[0]?.arguments ?? '')).toEqual({ enabled: true });
    expect(outcome.repairs.map((repair) => repair.parameter)).toContain('enabled');
  });
});
