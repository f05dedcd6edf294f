// `npm run bench [-- --only <suites>]`: runs the suites of SUITES below one after the other
// (never in parallel: on 2 shared cores they would measure each other), prints one table of every
// figure with its budget, then the engine's model calls per llm-failure-modes.md row. A suite that
// throws is reported and the others still run; the exit code is 1 if any suite failed.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runAttackBench } from './attack-bench';
import { runAuthBench } from './auth-bench';
import type { BenchRow } from './bench-row';
import {
  BENCHMARKS_PATH,
  describeMachine,
  type SuiteSection,
  updateBenchmarksPage,
} from './benchmarks-page';
import { runBundleBench } from './bundle-bench';
import { runDynamoDbClientBench } from './dynamodb-client-bench';
import { EMBEDDED_MODEL_NOTE, runEmbeddedModelBench } from './embedded-model-bench';
import { formatModelCallTable } from './engine/model-call-table';
import { runEngineBench } from './engine-bench';
import { runFliteBench } from './flite-bench';
import { formatBenchTable, verdictOf } from './format-table';
import { runHttpTurnBench } from './http-turn-bench';
import { runIsolationBench } from './isolation-bench';
import { LOCAL_MODEL_NOTE, runLocalModelBench } from './local-model-bench';
import { runMultipliedRowsBench } from './multiplied-rows';
import { runParamsBench } from './params-bench';
import { runParamsHostileBench } from './params-hostile';
import { runPromptSizeBench } from './prompt-size-bench';
import { runProviderFetchBench } from './provider-fetch-bench';
import { runRecognizerLeaveBench } from './recognizer-leave-bench';
import { runSpeechStreamBench } from './speech-stream-bench';
import { runSttBench } from './stt-bench';
import { runTranscribeAudioBench } from './transcribe-audio-bench';
import { runTranscribeBench } from './transcribe-bench';

interface SuiteReport {
  readonly rows: readonly BenchRow[];
  /** Further tables, printed after the main one. */
  readonly details: readonly string[];
}

const SUITES = {
  params: async (): Promise<SuiteReport> => ({ rows: await runParamsBench(), details: [] }),
  engine: async (): Promise<SuiteReport> => {
    const report = await runEngineBench();
    const title = 'Model calls per row of llm-failure-modes.md (policy lossless, engine defaults)';
    return {
      rows: report.rows,
      details: [`${title}\n\n${formatModelCallTable(report.modelCalls)}`],
    };
  },
  hostile: async (): Promise<SuiteReport> => ({
    rows: await runParamsHostileBench(),
    details: [],
  }),
  auth: async (): Promise<SuiteReport> => ({ rows: await runAuthBench(), details: [] }),
  dynamodb: async (): Promise<SuiteReport> => ({
    rows: await runDynamoDbClientBench(),
    details: [],
  }),
  turn: async (): Promise<SuiteReport> => runHttpTurnBench(),
  attack: async (): Promise<SuiteReport> => ({ rows: await runAttackBench(), details: [] }),
  isolation: async (): Promise<SuiteReport> => ({ rows: await runIsolationBench(), details: [] }),
  rows: async (): Promise<SuiteReport> => ({ rows: await runMultipliedRowsBench(), details: [] }),
  bundle: async (): Promise<SuiteReport> => ({ rows: await runBundleBench(), details: [] }),
  prompt: async (): Promise<SuiteReport> => ({ rows: await runPromptSizeBench(), details: [] }),
  local: async (): Promise<SuiteReport> => ({
    rows: await runLocalModelBench(),
    details: [LOCAL_MODEL_NOTE],
  }),
  flite: async (): Promise<SuiteReport> => ({ rows: await runFliteBench(), details: [] }),
  speech: async (): Promise<SuiteReport> => ({ rows: await runSpeechStreamBench(), details: [] }),
  embedded: async (): Promise<SuiteReport> => ({
    rows: await runEmbeddedModelBench(),
    details: [EMBEDDED_MODEL_NOTE],
  }),
  stt: async (): Promise<SuiteReport> => ({ rows: await runSttBench(), details: [] }),
  leave: async (): Promise<SuiteReport> => ({
    rows: await runRecognizerLeaveBench(),
    details: [],
  }),
  transcribe: async (): Promise<SuiteReport> => ({
    rows: await runTranscribeBench(),
    details: [],
  }),
  resample: async (): Promise<SuiteReport> => ({ rows: runTranscribeAudioBench(), details: [] }),
  provider: async (): Promise<SuiteReport> => ({
    rows: await runProviderFetchBench(),
    details: [],
  }),
} as const;
type SuiteName = keyof typeof SUITES;
const SUITE_NAMES = Object.keys(SUITES) as SuiteName[];

const USAGE = `usage: npm run bench [-- --only ${SUITE_NAMES.join(',')}] [--write]`;

const isSuiteName = (name: string): name is SuiteName => Object.hasOwn(SUITES, name);

/** The suites to run, in their fixed order, or the reason the arguments make no sense. */
function selectSuites(
  argv: readonly string[],
): { suites: SuiteName[]; write: boolean } | { problem: string } {
  let only: string | undefined;
  let write = false;
  try {
    const options = { only: { type: 'string' }, write: { type: 'boolean' } } as const;
    const { values } = parseArgs({ args: [...argv], options });
    only = values.only;
    write = values.write ?? false;
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  if (only === undefined) return { suites: SUITE_NAMES, write };
  const wanted = only
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = wanted.filter((name) => !isSuiteName(name));
  if (wanted.length === 0 || unknown.length > 0) {
    return { problem: `unknown suite(s) ${unknown.join(', ') || '(none given)'}` };
  }
  return { suites: SUITE_NAMES.filter((name) => wanted.includes(name)), write };
}

function machineLine(): string {
  const processors = cpus();
  const model = processors[0]?.model.trim() ?? 'unknown CPU';
  // The load shows how much the figures below were shared with other work on the machine.
  const [oneMinute = 0] = loadavg();
  return `node ${process.version}, ${model}, ${processors.length} cores, load average ${oneMinute.toFixed(2)}`;
}

const seconds = (milliseconds: number): string => `${(milliseconds / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const selection = selectSuites(process.argv.slice(2));
  if ('problem' in selection) {
    console.error(`${selection.problem}\n${USAGE}`);
    return 2;
  }
  console.log(`JCC benchmarks, ${new Date().toISOString()}`);
  console.log(machineLine());
  console.log(`suites: ${selection.suites.join(', ')}\n`);

  const rows: BenchRow[] = [];
  const details: string[] = [];
  const failed: SuiteName[] = [];
  const sections: SuiteSection[] = [];
  for (const name of selection.suites) {
    const startedAt = performance.now();
    try {
      // Before the suite runs: its load average would count the suite itself.
      const ranAt = new Date().toISOString();
      const machine = describeMachine();
      const report = await SUITES[name]();
      rows.push(...report.rows);
      details.push(...report.details);
      sections.push({ suite: name, ...report, machine, ranAt });
      console.error(`[${name}] done in ${seconds(performance.now() - startedAt)}`);
    } catch (error) {
      failed.push(name);
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`[${name}] FAILED after ${seconds(performance.now() - startedAt)}:\n${text}`);
    }
  }

  if (rows.length > 0) console.log(`\n${formatBenchTable(rows)}`);
  for (const table of details) console.log(`\n${table}`);
  const over = rows.filter((row) => verdictOf(row) === 'OVER').map((row) => row.name);
  console.log(
    `\n${over.length} of ${rows.filter((row) => row.budget !== undefined).length} budgeted rows OVER`,
  );
  if (failed.length > 0) console.log(`suites that failed: ${failed.join(', ')}`);
  // `--write`: each suite that ran replaces its table in docs/benchmarks.md (benchmarks-page.ts).
  if (selection.write && sections.length > 0) {
    const existing = await readFile(BENCHMARKS_PATH, 'utf8').catch(() => null);
    await writeFile(BENCHMARKS_PATH, updateBenchmarksPage(existing, sections, SUITE_NAMES));
    console.log(
      `wrote ${sections.map((section) => section.suite).join(', ')} to ${BENCHMARKS_PATH}`,
    );
  }
  return failed.length > 0 ? 1 : 0;
}

const exitCode = await main();
// Exit explicitly once the output is flushed: a failed suite may leave a server or socket open.
process.stdout.write('', () => process.exit(exitCode));
