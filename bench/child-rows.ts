import { spawn } from 'node:child_process';
import type { BenchRow } from './bench-row';

/**
 * Runs a bench script in a process of its own under tsx (so its peak RSS and its crashes are its
 * own) and reads the rows it prints on the line that starts with `marker`. A child that exits
 * with an error, or prints no such line, rejects with the end of what it printed.
 */
export function runChildForRows(
  script: string,
  options: {
    readonly args?: readonly string[];
    readonly marker: string;
    /** Far above what a run takes: a hung child must not hang `npm run bench`. */
    readonly timeoutMs: number;
    /** Names the run in the error, e.g. `the local-model bench`. */
    readonly label: string;
  },
): Promise<BenchRow[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...(options.args ?? [])], {
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: options.timeoutMs,
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const line = output.split('\n').find((candidate) => candidate.startsWith(options.marker));
      if (code !== 0 || line === undefined) {
        reject(
          new Error(`${options.label} exited with ${signal ?? code}:\n${output.slice(-2_000)}`),
        );
        return;
      }
      resolvePromise(JSON.parse(line.slice(options.marker.length)) as BenchRow[]);
    });
  });
}
