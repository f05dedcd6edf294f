/**
 * `npm run bench -- --write`: docs/benchmarks.md holds the current figures, one section per suite,
 * each with the machine and the date it ran on. A run replaces the sections of the suites it ran
 * and keeps the others; the text above the first section is written by hand (what each suite
 * measures) and kept as it is. History lives in git.
 */
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import type { BenchRow } from './bench-row';
import { verdictOf } from './format-table';

export const BENCHMARKS_PATH = 'docs/benchmarks.md';

/** What one suite measured, where and when. */
export interface SuiteSection {
  readonly suite: string;
  readonly rows: readonly BenchRow[];
  /** Further tables the suite prints, as plain text. */
  readonly details: readonly string[];
  readonly machine: string;
  /** ISO 8601, UTC. */
  readonly ranAt: string;
}

const MARKER = '<!-- suite: ';
const markerOf = (suite: string) => `${MARKER}${suite} -->`;

/** The machine as a section names it: CPU, cores, memory, Node, and how busy it was. */
export function describeMachine(): string {
  const processors = cpus();
  const model = processors[0]?.model.trim() ?? 'unknown CPU';
  const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  const [oneMinute = 0] = loadavg();
  return (
    `${model}, ${processors.length} cores, ${gib(totalmem())} memory (${gib(freemem())} free), ` +
    `Node ${process.version}, load average ${oneMinute.toFixed(2)}`
  );
}

/** One suite's section: its heading, the command that prints it, where and when, its table. */
export function renderSuiteSection(section: SuiteSection): string {
  const { suite, rows, details, machine, ranAt } = section;
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const table = [
    '| figure | value | unit | budget | result |',
    '|---|---:|---|---:|---|',
    ...rows.map(
      (row) =>
        `| ${cell(row.name)} | ${row.value} | ${cell(row.unit)} | ${row.budget ?? ''} | ${verdictOf(row) ?? ''} |`,
    ),
  ];
  const extra = details.map((text) => `\`\`\`text\n${text.trimEnd()}\n\`\`\``);
  return [
    markerOf(suite),
    `## ${suite}`,
    `\`npm run bench -- --only ${suite}\`, ${ranAt.slice(0, 16).replace('T', ' ')} UTC, on ${machine}.`,
    ...(rows.length === 0 ? [] : [table.join('\n')]),
    ...extra,
  ].join('\n\n');
}

/**
 * The page with `sections` in place: each replaces the section of its suite, or is added; the
 * sections end up in `order` (suites not in it last, by name). Text above the first section is
 * kept; with no page yet, `heading` starts it.
 */
export function updateBenchmarksPage(
  existing: string | null,
  sections: readonly SuiteSection[],
  order: readonly string[],
  heading = '# Benchmarks\n',
): string {
  const text = existing ?? heading;
  const first = text.indexOf(MARKER);
  const handWritten = (first < 0 ? text : text.slice(0, first)).trimEnd();
  const kept = new Map<string, string>();
  if (first >= 0) {
    for (const part of text.slice(first).split(MARKER).slice(1)) {
      const suite = part.slice(0, part.indexOf(' -->'));
      kept.set(suite, `${MARKER}${part}`.trimEnd());
    }
  }
  for (const section of sections) kept.set(section.suite, renderSuiteSection(section));
  const rank = (suite: string) => {
    const index = order.indexOf(suite);
    return index < 0 ? order.length : index;
  };
  const suites = [...kept.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return `${[handWritten, ...suites.map((suite) => kept.get(suite))].join('\n\n')}\n`;
}
