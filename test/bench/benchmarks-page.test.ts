import { describe, expect, it } from 'vitest';
import {
  renderSuiteSection,
  type SuiteSection,
  updateBenchmarksPage,
} from '../../bench/benchmarks-page';

const section = (suite: string, value: number): SuiteSection => ({
  suite,
  rows: [
    { name: `${suite}: a figure`, value, unit: 'ms', budget: 10 },
    { name: `${suite}: a|count`, value: 3, unit: 'calls' },
  ],
  details: [],
  machine: 'Test CPU, 2 cores',
  ranAt: '2026-11-26T06:00:00.000Z',
});

const HAND_WRITTEN = '# Benchmarks\n\nWhat each suite measures, written by hand.\n';

describe('renderSuiteSection', () => {
  it('names the suite, the command, the machine and the date, then one row a figure', () => {
    // Act
    const text = renderSuiteSection({ ...section('params', 12), details: ['a  b\n-  -\n1  2'] });

    // Assess
    expect(text).toContain('## params');
    expect(text).toContain(
      '`npm run bench -- --only params`, 2026-11-26 06:00 UTC, on Test CPU, 2 cores.',
    );
    expect(text).toContain('| params: a figure | 12 | ms | 10 | OVER |');
    expect(text).toContain('| params: a\\|count | 3 | calls |  |  |');
    expect(text).toContain('```text\na  b\n-  -\n1  2\n```');
  });
});

describe('updateBenchmarksPage', () => {
  it('keeps the hand-written text and adds the sections in the suites’ order', () => {
    // Act
    const page = updateBenchmarksPage(
      HAND_WRITTEN,
      [section('engine', 2), section('params', 1)],
      ['params', 'engine'],
    );

    // Assess
    expect(page.startsWith(HAND_WRITTEN)).toBe(true);
    expect(page.indexOf('## params')).toBeLessThan(page.indexOf('## engine'));
  });

  it('replaces the section of a suite that ran again and keeps the others as they were', () => {
    // Prepare
    const before = updateBenchmarksPage(
      HAND_WRITTEN,
      [section('params', 1), section('engine', 2)],
      ['params', 'engine'],
    );

    // Act
    const after = updateBenchmarksPage(before, [section('params', 7)], ['params', 'engine']);

    // Assess
    expect(after).toContain('| params: a figure | 7 | ms | 10 | PASS |');
    expect(after).not.toContain('| params: a figure | 1 |');
    expect(after).toContain('| engine: a figure | 2 | ms | 10 | PASS |');
    expect(after.match(/## params/g)).toHaveLength(1);
    expect(updateBenchmarksPage(after, [], ['params', 'engine'])).toBe(after);
  });

  it('puts a suite it does not know the order of last, and starts a page that does not exist', () => {
    // Act
    const page = updateBenchmarksPage(null, [section('stt', 5), section('params', 1)], ['params']);

    // Assess
    expect(page.startsWith('# Benchmarks\n')).toBe(true);
    expect(page.indexOf('## params')).toBeLessThan(page.indexOf('## stt'));
  });
});
