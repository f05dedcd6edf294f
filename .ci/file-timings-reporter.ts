// A vitest reporter that lists the slowest test files, each with its whole time in its worker
// (setup, import, tests), which the JSON reporter's per-file times (tests only) leave out.
// npm test -- --reporter=default --reporter=./.ci/file-timings-reporter.ts
// writes jcc-file-timings.json in the temporary directory (or FILE_TIMINGS_OUT), slowest first. docs/benchmarks.md, "Test suite".
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class FileTimingsReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const rows = testModules.map((module) => {
      const time = module.diagnostic();
      const total =
        time.environmentSetupDuration +
        time.prepareDuration +
        time.collectDuration +
        time.setupDuration +
        time.duration;
      return {
        file: relative(process.cwd(), module.moduleId),
        project: module.project.name,
        totalMs: Math.round(total),
        importMs: Math.round(time.collectDuration),
        testsMs: Math.round(time.duration),
        state: module.state(),
      };
    });
    rows.sort((a, b) => b.totalMs - a.totalMs);
    const out = process.env.FILE_TIMINGS_OUT ?? join(tmpdir(), 'jcc-file-timings.json');
    writeFileSync(out, `${JSON.stringify(rows, null, 1)}\n`);
    console.log(`file timings, slowest first: ${out}`);
  }
}
