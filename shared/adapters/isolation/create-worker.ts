import { existsSync } from 'node:fs';
import { type ResourceLimits, Worker } from 'node:worker_threads';

/**
 * In a Lambda bundle the worker is `isolation-worker.mjs` beside `index.mjs` (a second esbuild
 * entry); from the sources (`npm start`, tests) it is the TypeScript file, loaded through tsx.
 */
export function createWorker(idBuffer: SharedArrayBuffer, resourceLimits: ResourceLimits): Worker {
  const workerData = { idBuffer };
  const bundled = new URL('./isolation-worker.mjs', import.meta.url);
  if (existsSync(bundled)) return new Worker(bundled, { workerData, resourceLimits });
  return new Worker(new URL('./isolation-worker.ts', import.meta.url), {
    workerData,
    resourceLimits,
    execArgv: ['--import', 'tsx'],
  });
}
