// The closing line of `.ci/run`: "N passed, N failed, N skipped" for readers that do not know
// vitest. Usage: node .ci/vitest-summary.ts <vitest JSON report> <exit status of npm test>
// It counts every failure the run had, not only failed tests: a file that failed outside its
// tests (a hook, an import, a timeout), an error vitest reports outside any file, a step of
// `npm test` that stopped before vitest. So a run that exits non-zero never reads "0 failed",
// and this script exits non-zero whenever its line counts a failure.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface FileResult {
  readonly name: string;
  readonly status: string;
  readonly message?: string;
  readonly assertionResults: readonly { readonly status: string }[];
}

interface VitestReport {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly numTodoTests: number;
  readonly success: boolean;
  readonly testResults: readonly FileResult[];
}

const readReport = (path: string): VitestReport | undefined => {
  try {
    const text = readFileSync(path, 'utf8');
    return text.trim() === '' ? undefined : (JSON.parse(text) as VitestReport);
  } catch {
    return undefined;
  }
};

/** The line and the exit status; `status` is npm test's. */
function summarize(
  report: VitestReport | undefined,
  status: number,
): { line: string; exit: number } {
  if (report === undefined) {
    const exit = status === 0 ? 1 : status;
    return {
      line: `tests: no vitest report (npm test exited ${status} before vitest finished: see above), 1 failed`,
      exit,
    };
  }
  const filesFailedOutsideTests = report.testResults.filter(
    (file) =>
      file.status === 'failed' &&
      !file.assertionResults.some((assertion) => assertion.status === 'failed'),
  );
  const counted = report.numFailedTests + filesFailedOutsideTests.length;
  // Vitest leaves unhandled errors out of its JSON: only the exit status tells of them.
  const unreported = counted === 0 && (status !== 0 || !report.success) ? 1 : 0;
  const failed = counted + unreported;
  const details = [
    ...(report.numFailedTests > 0
      ? [`${report.numFailedTests} ${report.numFailedTests === 1 ? 'test' : 'tests'}`]
      : []),
    ...filesFailedOutsideTests.map(
      (file) =>
        `file ${relative(process.cwd(), file.name)} outside its tests${file.message ? `: ${file.message.split('\n', 1)[0]}` : ''}`,
    ),
    ...(unreported > 0 ? [`an error outside any test (vitest exited ${status}: see above)`] : []),
  ];
  const skipped = report.numPendingTests + report.numTodoTests;
  const failedText = details.length > 0 ? `${failed} failed (${details.join('; ')})` : '0 failed';
  return {
    line: `tests: ${report.numPassedTests} passed, ${failedText}, ${skipped} skipped`,
    exit: status !== 0 ? status : failed > 0 ? 1 : 0,
  };
}

const [reportPath, statusText] = process.argv.slice(2);
if (reportPath === undefined || statusText === undefined || !/^\d+$/.test(statusText)) {
  console.error('usage: node .ci/vitest-summary.ts <vitest JSON report> <exit status of npm test>');
  process.exitCode = 2;
} else {
  const { line, exit } = summarize(readReport(reportPath), Number(statusText));
  console.log(line);
  process.exitCode = exit;
}
