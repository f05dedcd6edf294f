import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../infra/stacks/voice-routes';

const script = join(repositoryRoot, '.ci', 'vitest-summary.ts');
const directory = mkdtempSync(join(tmpdir(), 'jcc-vitest-summary-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface Outcome {
  readonly line: string;
  readonly exit: number;
}

/** Runs the summary of `.ci/run` as it does: on a report file and npm test's exit status. */
let reports = 0;
const summarize = async (report: string | undefined, status: number): Promise<Outcome> => {
  reports += 1;
  const path = join(directory, `report-${reports}.json`);
  if (report !== undefined) writeFileSync(path, report);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script, path, String(status)]);
    return { line: stdout.trim(), exit: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { line: failed.stdout.trim(), exit: failed.code };
  }
};

const file = (name: string, status: string, assertions: string[], message = '') => ({
  name: join(repositoryRoot, name),
  status,
  message,
  assertionResults: assertions.map((assertion) => ({ status: assertion })),
});

/** The fields of vitest's JSON reporter the summary reads. */
const report = (fields: {
  passed?: number;
  failed?: number;
  pending?: number;
  todo?: number;
  failedSuites?: number;
  success: boolean;
  files: ReturnType<typeof file>[];
}) =>
  JSON.stringify({
    numTotalTestSuites: fields.files.length,
    numFailedTestSuites: fields.failedSuites ?? 0,
    numPassedTests: fields.passed ?? 0,
    numFailedTests: fields.failed ?? 0,
    numPendingTests: fields.pending ?? 0,
    numTodoTests: fields.todo ?? 0,
    success: fields.success,
    testResults: fields.files,
  });

describe('the closing summary of .ci/run', () => {
  it('reads 0 failed and exits 0 when every test passed', async () => {
    // Prepare
    const passing = report({
      passed: 3,
      pending: 1,
      todo: 1,
      success: true,
      files: [file('test/a.test.ts', 'passed', ['passed', 'passed', 'passed', 'skipped', 'todo'])],
    });

    // Act / Assess
    expect(await summarize(passing, 0)).toEqual({
      line: 'tests: 3 passed, 0 failed, 2 skipped',
      exit: 0,
    });
  });

  it('counts failed tests', async () => {
    // Prepare
    const failing = report({
      passed: 1,
      failed: 2,
      failedSuites: 1,
      success: false,
      files: [file('test/a.test.ts', 'failed', ['passed', 'failed', 'failed'])],
    });

    // Act / Assess
    expect(await summarize(failing, 1)).toEqual({
      line: 'tests: 1 passed, 2 failed (2 tests), 0 skipped',
      exit: 1,
    });
  });

  it('counts a file whose setup hook failed, though none of its tests did', async () => {
    // Prepare: the case of issue 19, a beforeAll over its hook timeout.
    const hookFailed = report({
      passed: 2323,
      pending: 21 + 21,
      failedSuites: 1,
      success: false,
      files: [
        file('test/a.test.ts', 'passed', ['passed']),
        file(
          'test/infra/stacks/jcc-app.test.ts',
          'failed',
          Array(21).fill('skipped'),
          'Hook timed out in 30000ms.\nIf this is a long-running hook, ...',
        ),
      ],
    });

    // Act
    const outcome = await summarize(hookFailed, 1);

    // Assess
    expect(outcome).toEqual({
      line:
        'tests: 2323 passed, 1 failed (file test/infra/stacks/jcc-app.test.ts outside its tests: ' +
        'Hook timed out in 30000ms.), 42 skipped',
      exit: 1,
    });
  });

  it('counts an error vitest reports outside any file when the report itself says success', async () => {
    // Prepare: an unhandled rejection fails the run, and vitest's JSON does not list it.
    const unhandled = report({
      passed: 5,
      success: true,
      files: [file('test/a.test.ts', 'passed', Array(5).fill('passed'))],
    });

    // Act / Assess
    expect(await summarize(unhandled, 1)).toEqual({
      line: 'tests: 5 passed, 1 failed (an error outside any test (vitest exited 1: see above)), 0 skipped',
      exit: 1,
    });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['cut short', '{"numPassedTests": 12'],
  ])('says no report was written when it is %s, and keeps the exit status', async (_, text) => {
    // Act
    const outcome = await summarize(text, 2);

    // Assess
    expect(outcome.exit).toBe(2);
    expect(outcome.line).toMatch(/^tests: no vitest report \(npm test exited 2 .*\), 1 failed$/);
  });

  it('fails a run whose report holds a failure even if npm test exited 0', async () => {
    // Prepare
    const failing = report({
      failed: 1,
      success: false,
      files: [file('test/a.test.ts', 'failed', ['failed'])],
    });

    // Act / Assess
    expect(await summarize(failing, 0)).toEqual({
      line: 'tests: 0 passed, 1 failed (1 test), 0 skipped',
      exit: 1,
    });
  });

  it.each([
    [0, 0],
    [1, 1],
    [2, 2],
  ])(
    'never prints "0 failed" for a run that exits non-zero (npm test exited %i)',
    async (status) => {
      // Prepare
      const passing = report({
        passed: 1,
        success: true,
        files: [file('test/a.test.ts', 'passed', ['passed'])],
      });

      // Act
      const outcome = await summarize(passing, status);

      // Assess
      expect(outcome.exit).toBe(status);
      expect(outcome.line.includes(' 0 failed')).toBe(status === 0);
    },
  );
});
