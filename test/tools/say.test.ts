import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textReply } from '../http/http-fixtures';
import { useLocalStack, withoutStackVariables } from '../support/local-stack-harness';
import { runTool, type ToolRun } from '../support/run-tool';

/** npm start's data in a folder of its own, as `DATA_DIR=... npm start` keeps it. */
const serverDataDir = mkdtempSync(join(tmpdir(), 'jcc-say-server-'));

/** Another DATA_DIR, holding a key the server never saw. */
const staleDataDir = mkdtempSync(join(tmpdir(), 'jcc-say-stale-'));
writeFileSync(join(staleDataDir, 'local-node-key'), 'local-node:stale-key\n', { mode: 0o600 });
const emptyDataDir = mkdtempSync(join(tmpdir(), 'jcc-say-empty-'));
afterAll(() => {
  for (const folder of [serverDataDir, staleDataDir, emptyDataDir])
    rmSync(folder, { recursive: true, force: true });
});
// Registered after the clean-up, so that its own afterAll (stopping the stack) runs first.
const harness = useLocalStack({ env: { DATA_DIR: serverDataDir, LOCAL_NODE_API_KEY: '' } });

/** `npm run say -- ...` as package.json runs it (tsx), in a shell that has only `env`. */
function say(env: Readonly<Record<string, string>>, args: readonly string[]): Promise<ToolRun> {
  const port = new URL(harness.stack.url).port;
  return runTool('infra/tools/say.ts', args, {
    ...withoutStackVariables(process.env),
    PORT: port,
    ...env,
  });
}

describe('npm run say', () => {
  it('finds the key npm start stored in its DATA_DIR, and plays the exchange', async () => {
    // Prepare
    harness.llm.enqueue(textReply('It is sunny tomorrow.'));

    // Act
    const run = await say({ DATA_DIR: serverDataDir }, ["what's the weather tomorrow"]);

    // Assess
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('stop_reason: complete');
    expect(run.stdout).toContain('assistant:   It is sunny tomorrow.');
  });

  it.each([
    [
      'the key of another DATA_DIR',
      { DATA_DIR: staleDataDir },
      join(staleDataDir, 'local-node-key'),
    ],
    [
      'LOCAL_NODE_API_KEY, before any stored key',
      { DATA_DIR: serverDataDir, LOCAL_NODE_API_KEY: 'local-node:not-the-key' },
      'LOCAL_NODE_API_KEY',
    ],
  ])(
    'refused with %s, says where the key came from and what to check',
    async (_case, env, source) => {
      // Act
      const run = await say(env, ['hello']);

      // Assess
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `${harness.stack.url} refused the key of node "local-node" (401), taken from ${source}.`,
      );
      expect(run.stderr).toContain('run say with the same DATA_DIR and LOCAL_NODE_API_KEY');
      expect(run.stderr).not.toMatch(/^\s+at /m);
    },
  );

  it('without a stored key, names the file it looked in', async () => {
    // Act
    const run = await say({ DATA_DIR: emptyDataDir }, ['hello']);

    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`say: no node key in ${join(emptyDataDir, 'local-node-key')}`);
  });
});
