import type { BenchRow } from './bench-row';

export type Verdict = 'PASS' | 'OVER';

/** PASS when the value is within its budget, OVER past it, null when the row has no budget. */
export function verdictOf(row: BenchRow): Verdict | null {
  if (row.budget === undefined) return null;
  return row.value <= row.budget ? 'PASS' : 'OVER';
}

/**
 * Plain-text columns, padded to the widest cell, with a rule under the header. Columns listed in
 * `rightAligned` (by index) are padded on the left, for numbers.
 */
export function formatColumns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: ReadonlySet<number> = new Set(),
): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    widths
      .map((width, column) => {
        const cell = cells[column] ?? '';
        return rightAligned.has(column) ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** The benchmark's main table: name, value, unit, budget and PASS/OVER per row. */
export function formatBenchTable(rows: readonly BenchRow[]): string {
  const cells = rows.map((row) => [
    row.name,
    String(row.value),
    row.unit,
    row.budget === undefined ? '' : String(row.budget),
    verdictOf(row) ?? '',
  ]);
  return formatColumns(['name', 'value', 'unit', 'budget', 'result'], cells, new Set([1, 3]));
}
