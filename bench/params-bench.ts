// The parameter system: compiling the real node's 16 commands (cold and cached) and checking one
// call (normalize + validate). Run directly (`npx tsx bench/params-bench.ts`) to print a table.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type CommandSetSource,
  type CompiledCommandSet,
  clearCommandSetCache,
  compileCommandSet,
} from '../shared/params';
import type { BenchRow } from './bench-row';
import { formatBenchTable } from './format-table';

export const coldCompileBudgetMs = 20;
export const cachedCompileBudgetMs = 0.5;
export const checkBudgetMicroseconds = 5;

const COLD_RUNS = 40;
const CACHED_RUNS = 400;
const CHECK_BATCHES = 200;
const CHECK_BATCH_SIZE = 500;

interface FixtureBody {
  readonly available_commands: Record<string, unknown>[];
  readonly client_tools: unknown[];
}

function loadFixture(): FixtureBody {
  const url = new URL('../test/fixtures/voice-node-conversation-start.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as FixtureBody;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

function timed(action: () => unknown): number {
  const start = performance.now();
  action();
  return performance.now() - start;
}

function compiled(source: CommandSetSource): CompiledCommandSet {
  const result = compileCommandSet(source);
  if (!result.ok) throw new Error(`the fixture does not compile: ${JSON.stringify(result.issues)}`);
  return result.value;
}

// Truly cold: the cache is emptied and each run compiles content it has never seen (a description
// differs), so neither the LRU nor any memo of the same objects can help.
function coldCompileMs(fixture: FixtureBody): number {
  const runs: number[] = [];
  for (let run = 0; run < COLD_RUNS; run += 1) {
    clearCommandSetCache();
    const [first, ...rest] = fixture.available_commands;
    const source = {
      available_commands: [
        { ...first, description: `${String(first?.description)} #${run}` },
        ...rest,
      ],
      client_tools: fixture.client_tools,
    };
    runs.push(timed(() => compiled(source)));
  }
  return median(runs);
}

function cachedCompileMs(fixture: FixtureBody): number {
  compiled(fixture);
  // A structurally equal copy, as a later request would bring: the hash must be recomputed.
  const copy = structuredClone(fixture);
  const runs: number[] = [];
  for (let run = 0; run < CACHED_RUNS; run += 1) runs.push(timed(() => compiled(copy)));
  return median(runs);
}

function checkMicroseconds(
  set: CompiledCommandSet,
  call: { name: string; arguments: unknown },
): number {
  const batches: number[] = [];
  for (let batch = 0; batch < CHECK_BATCHES; batch += 1) {
    const elapsed = timed(() => {
      for (let index = 0; index < CHECK_BATCH_SIZE; index += 1) set.check(call, 'lossless');
    });
    batches.push((elapsed * 1000) / CHECK_BATCH_SIZE);
  }
  return median(batches);
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

/** Median figures of the parameter system on the real node registration. */
export async function runParamsBench(): Promise<BenchRow[]> {
  const fixture = loadFixture();
  const cold = coldCompileMs(fixture);
  const cached = cachedCompileMs(fixture);
  const set = compiled(fixture);
  const weather = (resolvedDatetimes: unknown) => ({
    name: 'get_weather',
    arguments: { city: 'Los Angeles', resolved_datetimes: resolvedDatetimes },
  });
  return [
    {
      name: 'params: compile fixture (16 commands), cold',
      value: round(cold),
      unit: 'ms',
      budget: coldCompileBudgetMs,
    },
    {
      name: 'params: compile fixture, cached',
      value: round(cached),
      unit: 'ms',
      budget: cachedCompileBudgetMs,
    },
    {
      name: 'params: normalize + validate, valid call',
      value: round(checkMicroseconds(set, weather(['2026-01-18T05:00:00Z']))),
      unit: 'µs',
      budget: checkBudgetMicroseconds,
    },
    {
      name: 'params: normalize + validate, invalid call',
      value: round(checkMicroseconds(set, weather(['tomorrow']))),
      unit: 'µs',
      budget: checkBudgetMicroseconds,
    },
    {
      name: 'params: normalize + validate, repaired call',
      value: round(checkMicroseconds(set, weather('["2026-01-18t05:00:00z"]'))),
      unit: 'µs',
    },
  ];
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(formatBenchTable(await runParamsBench()));
}
