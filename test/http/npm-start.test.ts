import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
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
      expect(server.output()).toContain(`Generated a node key, stored in DATA_DIR (${dataDir}`);
      expect(server.output()).toContain('No language model configured');
      expect(exit, server.output()).toEqual({ code: 0, signal: null });
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('restarted on the same DATA_DIR, reuses the stored key and says so', {
    timeout: 60_000,
  }, async () => {
    // Prepare: the key an earlier run stored.
    const port = await freePort();
    const dataDir = await mkdtemp(join(tmpdir(), 'jcc-npm-start-'));
    const key = `local-node:${'k'.repeat(43)}`;
    await writeFile(join(dataDir, 'local-node-key'), `${key}\n`, { mode: 0o600 });
    const server = spawnLocalApi({
      ...withoutStackVariables(process.env),
      PORT: String(port),
      DYNAMODB_PORT: String(await freePort()),
      DATA_DIR: dataDir,
    });
    const url = `http://127.0.0.1:${port}`;
    const conversationId = conversationIdFor('npm-start-restart');
    try {
      await waitForHealth(url, 30_000, server);

      // Act
      const started = await createApiClient(url, { key }).post(
        ROUTES.start,
        fixtureStartBody(conversationId),
      );

      // Assess
      expectStarted(started, conversationId);
      expect(server.output()).toContain(
        `Reusing the node key stored in DATA_DIR (${join(dataDir, 'local-node-key')})`,
      );
      expect(server.output()).toContain(`X-API-Key: ${key}`);
      expect(server.output()).not.toContain('Generated a node key');
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each([
  ['PORT', 'the local API'],
  ['DYNAMODB_PORT', 'the embedded DynamoDB'],
])('npm start with %s taken by another program', (setting, what) => {
  it('says in one line which setting to change, and exits 1', { timeout: 60_000 }, async () => {
    // Prepare: something else listens on the port this setting names.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const server = spawnLocalApi({
      ...withoutStackVariables(process.env),
      PORT: String(await freePort()),
      DYNAMODB_PORT: String(await freePort()),
      DATA_DIR: 'memory',
      [setting]: String(port),
    });
    try {
      // Act
      const exit = await server.exit(30_000);

      // Assess
      expect(exit, server.output()).toEqual({ code: 1, signal: null });
      expect(server.output().trim()).toBe(
        `npm start: 127.0.0.1:${port} (${setting}, ${what}) is already in use, perhaps by ` +
          `another npm start: stop it, or set ${setting} to a free port, e.g. ${setting}=${port + 1} npm start`,
      );
    } finally {
      await server.stop();
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('npm start with an invalid setting', () => {
  it('names every bad setting in one line and exits 1, instead of answering 500 later', {
    timeout: 60_000,
  }, async () => {
    const server = spawnLocalApi({
      ...withoutStackVariables(process.env),
      PORT: String(await freePort()),
      DYNAMODB_PORT: String(await freePort()),
      DATA_DIR: 'memory',
      TURN_DEADLINE_MS: 'soon',
      PARAM_NORMALIZATION: 'sloppy',
    });
    try {
      const exit = await server.exit(30_000);

      expect(exit, server.output()).toEqual({ code: 1, signal: null });
      const lines = server.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^npm start: invalid configuration: .*PARAM_NORMALIZATION.*TURN_DEADLINE_MS/,
      );
    } finally {
      await server.stop();
    }
  });
});
