// The isolation bench's probes of the worker itself: the bundled worker's boot, and a real
// compile interrupted at its deadline (bench/isolation-bench.ts).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { esbuildBuildOptions, functionBundling } from '../../infra/stacks/function-bundling';
import { ID_BUFFER_BYTES } from '../../shared/adapters/isolation/isolation-protocol';
import { WorkerIsolation } from '../../shared/adapters/isolation/worker-isolation';
import { UntrustedWorkOverrunError } from '../../shared/conversation/errors';
import { inThreadWork } from '../../shared/conversation/turn/in-thread-work';
import type { UntrustedWork } from '../../shared/conversation/turn/untrusted-work';
import { percentile } from '../engine/percentile';

export const BOOTS = 5;
const repositoryRoot = resolve(import.meta.dirname, '../..');

/** The bundled worker as deployed: from `new Worker` to its first message, in a warm process. */
export async function bundledWorkerBoot(): Promise<{ bootMs: number; sizeKb: number }> {
  const directory = mkdtempSync(join(tmpdir(), 'jcc-isolation-bench-'));
  try {
    const outfile = join(directory, functionBundling.workerOutputFile);
    await build(esbuildBuildOptions(join(repositoryRoot, functionBundling.workerEntry), outfile));
    const boots: number[] = [];
    for (let run = 0; run < BOOTS; run += 1) {
      const started = performance.now();
      const worker = new Worker(pathToFileURL(outfile), {
        workerData: { idBuffer: new SharedArrayBuffer(ID_BUFFER_BYTES) },
      });
      await new Promise((ready) => worker.once('message', ready));
      boots.push(performance.now() - started);
      await worker.terminate();
    }
    return { bootMs: percentile(boots, 0.5), sizeKb: statSync(outfile).size / 1024 };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** 120 commands of 8 wide patterns (61 KB): refused by the cost bound, after ~200 ms of work. */
function slowRegistration(version: number): Parameters<UntrustedWork['compile']>[0] {
  const pattern = (index: number) => `^[ab]{0,480}${index}$`;
  const properties = (command: number) =>
    Object.fromEntries(
      Array.from({ length: 8 }, (_, index) => [
        `p${index}`,
        { pattern: pattern(command * 8 + index) },
      ]),
    );
  return {
    client_tools: Array.from({ length: 120 }, (_, command) => ({
      type: 'function',
      function: {
        name: `probe_${command}`,
        description: `version ${version}`,
        parameters: { type: 'object', properties: properties(command) },
      },
    })),
  } as never;
}

/** A compile past a 50 ms deadline is really interrupted: the time until it is refused. */
export async function interrupted(): Promise<{ inThreadMs: number; refusedAfterMs: number }> {
  let started = performance.now();
  await inThreadWork.compile(slowRegistration(0));
  const inThreadMs = performance.now() - started;
  const isolation = new WorkerIsolation({ compileDeadlineMs: 50 });
  try {
    await isolation.compile({ client_tools: [] } as never);
    started = performance.now();
    const outcome = await isolation.compile(slowRegistration(1)).catch((error: unknown) => error);
    if (!(outcome instanceof UntrustedWorkOverrunError))
      throw new Error('the deadline did not fire');
    return { inThreadMs, refusedAfterMs: performance.now() - started };
  } finally {
    await isolation.close();
  }
}
