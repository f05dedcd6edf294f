// Bundle size and cold import time of each Lambda handler, bundled exactly as the stack bundles it.
// Run directly (`npx tsx bench/bundle-bench.ts`) to print a table.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { defaultDeploySettings } from '../infra/stacks/deploy-settings';
import { esbuildBuildOptions } from '../infra/stacks/function-bundling';
import { functionEnvironment } from '../infra/stacks/function-environment';
import { type ApiFunction, repositoryRoot, voiceFunctions } from '../infra/stacks/voice-routes';
import type { BenchRow } from './bench-row';

export const bundleBudgetKb = 500;
export const coldInitBudgetMs = 150;
export const coldInitRuns = 10;
const childTimeoutMs = 30_000;

// Under node_modules so the external `@aws-sdk/*` imports resolve, as the runtime's SDK does.
const workDirectory = join(repositoryRoot, 'node_modules', '.cache', 'jcc-bench');

// performance.now() counts from the start of the process, so `loadedAt` includes Node's own start.
// A streaming function calls \`awslambda.streamifyResponse\` as it loads; Lambda's runtime defines
// that global before the import, so the timer does too (a pass-through: only the import is timed).
const importTimerScript = `const bundle = process.argv[2];
globalThis.awslambda ??= { streamifyResponse: (handler) => handler, HttpResponseStream: { from: (stream) => stream } };
const before = performance.now();
await import(bundle);
const loadedAt = performance.now();
process.stdout.write(JSON.stringify({ importMs: loadedAt - before, loadedAt }), () => process.exit(0));
`;

interface ColdImport {
  readonly importMs: number;
  readonly loadedAt: number;
}

/**
 * The environment of a deployed function, made to work offline: a plain key instead of the
 * secret, dummy credentials, a local endpoint. Nothing is called at import time if the handlers
 * keep their clients lazy; if they do not, the measurement shows it.
 */
function childEnvironment(): NodeJS.ProcessEnv {
  return {
    ...functionEnvironment({
      tableName: 'jcc-bench',
      settings: defaultDeploySettings,
      needs: { callsModel: true, hears: false, speaks: false },
    }),
    OPENAI_API_KEY_SECRET: '',
    OPENAI_API_KEY: 'bench-placeholder-key',
    DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    PATH: process.env.PATH ?? '',
  };
}

function measureColdImport(timerPath: string, bundlePath: string): Promise<ColdImport> {
  return new Promise((resolveImport, reject) => {
    const child = spawn(process.execPath, [timerPath, pathToFileURL(bundlePath).href], {
      env: childEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: childTimeoutMs,
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`importing ${bundlePath} failed (exit ${code}): ${errors.trim()}`));
        return;
      }
      resolveImport(JSON.parse(output) as ColdImport);
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  const lower = sorted[sorted.length % 2 === 0 ? middle - 1 : middle] ?? Number.NaN;
  return (lower + upper) / 2;
}

const roundTo = (value: number, decimals: number): number => Number(value.toFixed(decimals));

async function benchRoute(route: ApiFunction, timerPath: string): Promise<BenchRow[]> {
  const outfile = join(workDirectory, route.name, 'index.mjs');
  const result = await build({
    ...esbuildBuildOptions(join(repositoryRoot, route.entry), outfile),
    metafile: true,
  });
  // Kept for `npx esbuild --analyze`-style digging when a budget is exceeded.
  writeFileSync(join(workDirectory, route.name, 'meta.json'), JSON.stringify(result.metafile));
  const samples: ColdImport[] = [];
  for (let run = 0; run < coldInitRuns; run += 1) {
    samples.push(await measureColdImport(timerPath, outfile));
  }
  return [
    {
      name: `${route.name} bundle size`,
      value: roundTo(statSync(outfile).size / 1024, 1),
      unit: 'KB',
      budget: bundleBudgetKb,
    },
    {
      name: `${route.name} cold init (import, median of ${coldInitRuns})`,
      value: roundTo(median(samples.map((sample) => sample.importMs)), 1),
      unit: 'ms',
      budget: coldInitBudgetMs,
    },
    {
      name: `${route.name} process start to module loaded (median)`,
      value: roundTo(median(samples.map((sample) => sample.loadedAt)), 1),
      unit: 'ms',
    },
  ];
}

/**
 * Bundles each handler with the stack's esbuild options, then reports its minified size and the
 * median time a fresh Node process takes to import it.
 */
export async function runBundleBench(): Promise<BenchRow[]> {
  rmSync(workDirectory, { recursive: true, force: true });
  mkdirSync(workDirectory, { recursive: true });
  const timerPath = join(workDirectory, 'import-timer.mjs');
  writeFileSync(timerPath, importTimerScript);
  const rows: BenchRow[] = [];
  // One route at a time: parallel children would measure each other's CPU contention.
  for (const route of voiceFunctions) rows.push(...(await benchRoute(route, timerPath)));
  return rows;
}

function formatTable(rows: readonly BenchRow[]): string {
  const width = Math.max(...rows.map((row) => row.name.length));
  return rows
    .map((row) => {
      const value = `${row.value} ${row.unit}`.padStart(12);
      const budget = row.budget === undefined ? '' : `budget ${row.budget} ${row.unit}`;
      const verdict = row.budget === undefined ? '' : row.value <= row.budget ? 'ok' : 'OVER';
      return `${row.name.padEnd(width)}  ${value}  ${budget.padEnd(18)}  ${verdict}`;
    })
    .join('\n');
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  console.log(formatTable(await runBundleBench()));
}
