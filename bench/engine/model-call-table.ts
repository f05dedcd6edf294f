import { formatColumns } from '../format-table';
import type { ModelCallCount } from './model-call-count';

/** The second table: per row of llm-failure-modes.md, the model calls made next to the minimum. */
export function formatModelCallTable(counts: readonly ModelCallCount[]): string {
  const rows = counts.map((count) => [
    count.testCase.section,
    count.testCase.row,
    String(count.calls),
    String(count.testCase.minimumCalls),
    count.stopReason,
    count.ok ? 'yes' : `NO: ${shortfall(count)}`,
  ]);
  return formatColumns(
    ['section', 'row', 'calls', 'minimum', 'stop reason', 'ok?'],
    rows,
    new Set([2, 3]),
  );
}

function shortfall({ testCase, calls, stopReason, argumentsRight }: ModelCallCount): string {
  const problems: string[] = [];
  if (calls > testCase.minimumCalls)
    problems.push(`${calls - testCase.minimumCalls} call(s) too many`);
  if (calls < testCase.minimumCalls)
    problems.push(`${testCase.minimumCalls - calls} call(s) too few`);
  if (stopReason !== testCase.expectedStop)
    problems.push(`should stop with ${testCase.expectedStop}`);
  if (!argumentsRight) problems.push('other arguments handed over');
  return problems.join(', ');
}
