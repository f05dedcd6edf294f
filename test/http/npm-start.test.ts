import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApiClient, ROUTES } from '../support/api-client';
import { NODE_TIMEZONE, withoutStackVariables } from '../support/local-stack-harness';
import { conversationIdFor, fixtureStartBody } from './http-fixtures';
import { freePort, npmStartCommand, spawnLocalApi, waitForHealth } from './local-api-process';
import { expectStarted } from './response-contract';

describe('npm start', () => {
  it('runs the command package.json names', () => {
    // Act
    const command = npmStartCommand();

    // Assess
    expect(command).toEqual({ binary: 'tsx', args: ['infra/local/start.ts'] });
  });

  it('serves the API with a generated node key until SIGINT, then exits 0', {
    timeout: 60_000,
  }, async () => {
    // Prepare: the defaults a developer gets (LevelDB files, a generated key), on ports picked here.
    const port = await freePort();
    const dataDir = await mkdtemp(join(tmpdir(), 'jcc-npm-start-'));
    const server = spawnLocalApi({
      ...withoutStackVariables(process.env),
      PORT: String(port),
      DYNAMODB_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOCAL_NODE_TIMEZONE: NODE_TIMEZONE,
    });
    const url = `http://127.0.0.1:${port}`;
    const conversationId = conversationIdFor('npm-start');
    try {
      await waitForHealth(url, 30_000, server);
      const key = (await readFile(join(dataDir, 'local-node-key'), 'utf8')).trim();

      // Act
      const started = await createApiClient(url, { key }).post(
        ROUTES.start,
        fixtureStartBody(conversationId),
      );
      server.child.kill('SIGINT');
      const exit = await server.exit(10_000);

      // Assess
      expectStarted(started, conversationId);
      expect(key).toMatch(/^local-node:[\w-]{43}$/);
      expect(server.output()).toContain(`X-API-Key: ${key}`);
      expect(server.output()).toContain('No language model configured');
      expect(exit, server.output()).toEqual({ code: 0, signal: null });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
