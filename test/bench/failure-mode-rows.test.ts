import { describe, expect, it } from 'vitest';
import { compileForEngine, fixtureRegistration } from '../../bench/engine/fixture-registration';
import { countFailureModeRows } from '../../bench/engine-bench';

describe("the engine bench's llm-failure-modes.md rows", () => {
  it('each takes exactly its minimum model calls and stops as its row says', () => {
    // Act
    const counts = countFailureModeRows(compileForEngine(fixtureRegistration()));

    // Assess: a row off its minimum is either a server that asks the model more than it must,
    // or a case that no longer scripts what its row names.
    const off = counts
      .filter((count) => !count.ok)
      .map(({ testCase, calls, stopReason }) => ({ row: testCase.row, calls, stopReason }));
    expect(off).toEqual([]);
    expect(counts.length).toBeGreaterThan(50);
  });
});
