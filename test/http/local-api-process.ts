import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npm start` as package.json spells it, split into the binary and its arguments. */
export function npmStartCommand(): { readonly binary: string; readonly args: readonly string[] } {
  const manifest = JSON.parse(readFileSync(`${REPOSITORY_ROOT}package.json`, 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const [binary = '', ...args] = (manifest.scripts?.start ?? '').split(/\s+/);
  return { binary, args };
}

export interface LocalApiProcess {
  readonly child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal), or rejects after `timeoutMs`. */
  exit(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Cleanup after a failed test: SIGTERM (which tsx relays to the server), SIGKILL if that fails. */
  stop(): Promise<void>;
}

/**
 * Runs `npm start`'s command (node with the tsx loader on infra/local/start.ts) with the Node
 * running the tests, without npm in between so that signals reach it directly.
 */
export function spawnLocalApi(env: NodeJS.ProcessEnv): LocalApiProcess {
  const { binary, args } = npmStartCommand();
  if (binary !== 'node')
    throw new Error(`npm start runs "${binary}", not node: update this helper`);
  const child = spawn(process.execPath, args, {
    cwd: REPOSITORY_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const exit = (timeoutMs: number) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`still running ${timeoutMs} ms later:\n${output}`)),
        timeoutMs,
      );
      exited.then((result) => {
        clearTimeout(timer);
        resolve(result);
      }, reject);
    });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => output,
    exit,
    stop: async () => {
      if (!running()) return;
      child.kill('SIGTERM');
      await exit(5_000).catch(() => child.kill('SIGKILL'));
    },
  };
}

/** Polls `GET <url>/health` until it answers 200; throws after `timeoutMs` with what it saw. */
export async function waitForHealth(
  url: string,
  timeoutMs: number,
  server: LocalApiProcess,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (server.child.exitCode !== null)
      throw new Error(`the server exited early:\n${server.output()}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.status === 200) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `${url}/health did not answer 200 within ${timeoutMs} ms (${last}):\n${server.output()}`,
  );
}
