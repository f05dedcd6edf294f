// `npm run bench -- --only local`: the local API of `npm start` against the scripted model server
// with the latency model of a local CPU model (issue 21's Q4_0 and Q8_0 figures), on a clock 20
// times faster than the real one (bench/local-model/local-model-stack.ts), in a child process.
// Run directly (`npx tsx bench/local-model-bench.ts`) to print its rows.
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MEASURED } from '../test/support/scripted-llm/latency-profile';
import type { BenchRow } from './bench-row';
import { runChildForRows } from './child-rows';
import { formatBenchTable } from './format-table';

const CHILD = fileURLToPath(new URL('./local-model/run-local-model-bench.ts', import.meta.url));
/** Kept in step with run-local-model-bench.ts (importing it would run it). */
const RESULT_MARKER = 'LOCAL_MODEL_ROWS ';
/** Far above the ~30 s a run takes: a hung child must not hang `npm run bench`. */
const CHILD_TIMEOUT_MS = 5 * 60_000;

/** Printed with the rows: none of them was measured on a model, each is the simulator's. */
export const LOCAL_MODEL_NOTE =
  'local: every figure is modeled, not measured: the local API of npm start is real, the model ' +
  `server is a simulator whose speeds come from a measurement of ${MEASURED} ` +
  '(test/support/scripted-llm/latency-profile.ts).';

export function runLocalModelBench(): Promise<BenchRow[]> {
  return runChildForRows(CHILD, {
    marker: RESULT_MARKER,
    timeoutMs: CHILD_TIMEOUT_MS,
    label: 'the local-model bench',
  });
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(`${LOCAL_MODEL_NOTE}\n\n${formatBenchTable(await runLocalModelBench())}`);
}
