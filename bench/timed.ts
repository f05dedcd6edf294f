import { performance } from 'node:perf_hooks';

/** How long `work` took, in milliseconds, and what it gave. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}
