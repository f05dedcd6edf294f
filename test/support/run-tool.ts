import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repositoryRoot } from '../../infra/stacks/voice-routes';

/** What a tool's run left: its exit code (null when a signal ended it) and all it wrote. */
export interface ToolRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `script` (a tool of infra/tools) run as package.json runs it, through tsx from the repository
 * root, with `env` as its whole environment.
 */
export function runTool(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<ToolRun> {
  const child = spawn(
    process.execPath,
    [join(repositoryRoot, 'node_modules/tsx/dist/cli.mjs'), script, ...args],
    { cwd: repositoryRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
