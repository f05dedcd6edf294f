// The engine's own cost per turn (the model answers instantly, the store is dynalite in process),
// the model calls each llm-failure-modes.md row takes, and the size of what the model is sent.
// Run directly (`npx tsx bench/engine-bench.ts`) to print its tables.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemClock } from '../shared/adapters/system/system-clock';
import { systemPromptFor } from '../shared/conversation';
import { SERVER_TOOLS } from '../shared/conversation/server-tools/server-tools';
import type { CompiledCommandSet } from '../shared/params';
import { MUST_CALL_COMMANDS, PROBE_COMMANDS } from '../test/support/probe-commands';
import type { BenchRow } from './bench-row';
import { InMemoryConversationStore, startDynaliteStore } from './engine/bench-stores';
import { measureCommandSetLookup } from './engine/command-set-lookup';
import { compileForEngine, fixtureRegistration } from './engine/fixture-registration';
import { countAllModelCalls, type ModelCallCount } from './engine/model-call-count';
import { formatModelCallTable } from './engine/model-call-table';
import { percentile, roundTo } from './engine/percentile';
import { ARGUMENT_SHAPE_CASES, MEANING_CASES } from './engine/shape-and-meaning-cases';
import { type ExchangeLatencies, type LatencyPlan, measureExchanges } from './engine/turn-latency';
import { LOOP_CASES, WHERE_CASES } from './engine/where-and-loop-cases';
import { formatBenchTable } from './format-table';

export const turnP50BudgetMs = 10;
export const turnP99BudgetMs = 30;

export const DEFAULT_LATENCY_PLAN: LatencyPlan = {
  warmupExchanges: 50,
  measuredExchanges: 1000,
  exchangesPerConversation: 10,
};

export interface EngineBenchReport {
  readonly rows: readonly BenchRow[];
  readonly modelCalls: readonly ModelCallCount[];
}

const FAILURE_MODE_CASES = [
  ...ARGUMENT_SHAPE_CASES,
  ...MEANING_CASES,
  ...WHERE_CASES,
  ...LOOP_CASES,
];

/** The model calls each llm-failure-modes.md row takes, against the command set it names. */
export function countFailureModeRows(compiled: CompiledCommandSet): ModelCallCount[] {
  return countAllModelCalls(FAILURE_MODE_CASES, {
    fixture: compiled,
    probe: compileForEngine(PROBE_COMMANDS),
    must_call: compileForEngine(MUST_CALL_COMMANDS),
  });
}

function latencyRows(
  latencies: ExchangeLatencies,
  storeLabel: string,
  budgeted: boolean,
): BenchRow[] {
  const rows: BenchRow[] = [];
  const turns = [
    ['voice/command turn', latencies.command],
    ['continue turn', latencies.continued],
  ] as const;
  for (const [label, samples] of turns) {
    for (const [name, fraction, budget] of [
      ['p50', 0.5, turnP50BudgetMs],
      ['p99', 0.99, turnP99BudgetMs],
    ] as const) {
      rows.push({
        name: `engine: ${label} ${name}, ${storeLabel}`,
        value: roundTo(percentile(samples, fraction), 2),
        unit: 'ms',
        ...(budgeted ? { budget } : {}),
      });
    }
  }
  rows.push({
    name: `engine: full exchange (command + continue) p50, ${storeLabel}`,
    value: roundTo(percentile(latencies.exchange, 0.5), 2),
    unit: 'ms',
  });
  return rows;
}

/** Times turns on dynalite, then on a map (engine alone), and counts each row's model calls. */
export async function runEngineBench(
  plan: LatencyPlan = DEFAULT_LATENCY_PLAN,
): Promise<EngineBenchReport> {
  const registration = fixtureRegistration();
  const compiled = compileForEngine(registration);
  const commandCount = compiled.commands.size;

  const dynalite = await startDynaliteStore(systemClock);
  let onDynalite: ExchangeLatencies;
  try {
    onDynalite = await measureExchanges(dynalite, registration, plan);
  } finally {
    await dynalite.close();
  }
  const inMemory = await measureExchanges(
    { store: new InMemoryConversationStore() },
    registration,
    plan,
  );

  const modelCalls = countFailureModeRows(compiled);
  const tools = [...compiled.tools, ...SERVER_TOOLS];
  const rows: BenchRow[] = [
    ...latencyRows(onDynalite, `dynalite (${plan.measuredExchanges} exchanges)`, true),
    ...latencyRows(inMemory, 'in-memory store', false),
    {
      name: 'engine: command-set lookup per turn p50 (by stored hash)',
      value: roundTo(measureCommandSetLookup(registration), 3),
      unit: 'ms',
    },
    {
      name: `engine: system prompt, fixture's ${commandCount} commands`,
      value: systemPromptFor(compiled).length,
      unit: 'chars',
    },
    {
      name: `engine: tools JSON, ${commandCount} commands + ${SERVER_TOOLS.length} server tools`,
      value: JSON.stringify(tools).length,
      unit: 'chars',
    },
    {
      name: `engine: failure-mode rows off the minimum model calls (of ${modelCalls.length})`,
      value: modelCalls.filter((count) => !count.ok).length,
      unit: 'rows',
      budget: 0,
    },
  ];
  return { rows, modelCalls };
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  const report = await runEngineBench();
  console.log(formatBenchTable(report.rows));
  console.log(`\n${formatModelCallTable(report.modelCalls)}`);
}
