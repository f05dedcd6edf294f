// `npm run bench -- --only embedded`: the embedded model of `npm start` (llama.cpp in process,
// node-llama-cpp) on random-weight GGUFs of the default's exact shape and quantization
// (Qwen3-1.7B, Q4_K_M; Q8_0 beside it) and of the small option's (Qwen3-0.6B, Q8_0), written by
// test/support/random-gguf once into the temp folder: speed does not depend on the weights'
// values. Each shape runs in its own process, so its peak RSS is its own. Printed, never asserted.
// Run directly (`npx tsx bench/embedded-model-bench.ts`) to print its rows.
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './bench-row';
import { runChildForRows } from './child-rows';
import { formatBenchTable } from './format-table';

const CHILD = fileURLToPath(
  new URL('./embedded-model/run-embedded-model-bench.ts', import.meta.url),
);
/** Kept in step with run-embedded-model-bench.ts (importing it would run it). */
const RESULT_MARKER = 'EMBEDDED_MODEL_ROWS ';
/** A full-size model's runs take minutes on 2 loaded cores; only a hang reaches this. */
const CHILD_TIMEOUT_MS = 60 * 60_000;

/** Which shapes, in order: the default, its Q8_0, the small option. */
const SHAPES = [
  ['1.7b', 'q4_k_m'],
  ['1.7b', 'q8_0'],
  ['0.6b', 'q8_0'],
] as const;

/** How the figures were made, printed with them. */
export const EMBEDDED_MODEL_NOTE =
  'embedded: random-weight GGUFs of Qwen3-1.7B (Q4_K_M, Q8_0) and Qwen3-0.6B (Q8_0) shapes through ' +
  'the real binding. The ceiling is the binding evaluating a 512-token batch and 64 greedy tokens ' +
  "(llama-bench pp512/tg64), then the command prompt's own tokens in batches of 512 and 64 tokens " +
  "after them, greedy and with Qwen3's sampling: the depth every turn generates at. The first " +
  'voice/command is one request after the warm-up: its words, then up to 73 tokens (a get_weather ' +
  "call's; a random model writes no call, so it is cut there unless it ends its turn first); " +
  'continue is its prompt plus 25 tokens at the measured rate, summed. The realistic call rows time ' +
  "the first command's model work with the get_weather call a real model writes for it, each step " +
  "steered to the call's next token, one step a token and with jump-forward (the adapter's planner), " +
  'alternately on the same sequence: their ratio is taken pair by pair. EMBEDDED_BENCH_RUNS sets the ' +
  "runs (3), EMBEDDED_BENCH_TEMPERATURE the sampling (npm start's default unless set), " +
  'EMBEDDED_BENCH_ONLY=call only the realistic call rows.';

function runShape(shape: string, quantization: string): Promise<BenchRow[]> {
  return runChildForRows(CHILD, {
    args: [shape, quantization],
    marker: RESULT_MARKER,
    timeoutMs: CHILD_TIMEOUT_MS,
    label: `the embedded-model bench (${shape} ${quantization})`,
  });
}

export async function runEmbeddedModelBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [shape, quantization] of SHAPES) rows.push(...(await runShape(shape, quantization)));
  return rows;
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(`${EMBEDDED_MODEL_NOTE}\n\n${formatBenchTable(await runEmbeddedModelBench())}`);
}
