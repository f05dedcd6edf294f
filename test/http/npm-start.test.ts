import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePortAfter } from '../../infra/local/port-in-use-error';
import { createApiClient, ROUTES } from '../support/api-client';
import { freePort } from '../support/free-port';
import { NODE_TIMEZONE, withoutStackVariables } from '../support/local-stack-harness';
import { conversationIdFor, fixtureStartBody } from './http-fixtures';
import {
  type LocalApiProcess,
  npmStartCommand,
  REPOSITORY_ROOT,
  spawnLocalApi,
  waitForHealth,
} from './local-api-process';
import { expectStarted } from './response-contract';

/**
 * A bound on a start or an exit that only a hang reaches: a start takes seconds even on a loaded
 * machine. The tests below wait for what the process says, never for a time.
 */
const LIVENESS_BOUND_MS = 120_000;
/** No model: npm start would otherwise fetch and run its embedded one. */
const hermetic = () => ({ ...withoutStackVariables(process.env), LLM_MODEL: 'none' });

/** Two ports free now, one after the other: the running stack's PORT and its DYNAMODB_PORT. */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if ((await freePortAfter('127.0.0.1', port, [])) === port + 1) return port;
  }
}

/** Runs `npm start` with `env` to its exit, expecting one line on stderr and exit code 1. */
async function refusedStart(env: NodeJS.ProcessEnv): Promise<string> {
  const server = spawnLocalApi(env);
  try {
    const exit = await server.exit(LIVENESS_BOUND_MS);
    expect(exit, server.output()).toEqual({ code: 1, signal: null });
    const lines = server.output().trim().split('\n');
    expect(lines, server.output()).toHaveLength(1);
    return lines[0] ?? '';
  } finally {
    await server.stop();
  }
}

describe('npm start', () => {
  it('runs the server as the process npm starts, with no relay of its signals between', () => {
    // Act
    const command = npmStartCommand();

    // Assess: tsx's CLI would relay Ctrl-C and SIGKILL a server that had not acknowledged it
    // within 60 ms (a loaded machine), skipping the clean close of its database.
    expect(command).toEqual({ binary: 'node', args: ['--import', 'tsx', 'infra/local/start.ts'] });
  });

  it.each([
    [
      'its own settings, every bad one at once',
      { LLM_THREADS: '0', STT_THREADS: 'two', HF_ENDPOINT: 'ftp://mirror.example/hub' },
      'npm start: LLM_THREADS must be an integer from 1 to 256, got "0"; ' +
        'STT_THREADS must be an integer from 1 to 8, got "two"; HF_ENDPOINT must be an http(s) URL',
    ],
    [
      'a model setting that names no model',
      { LLM_MODEL: 'hf:acme' },
      'npm start: LLM_MODEL: "hf:acme" names no file of the repository: use ' +
        'hf:<user>/<repo>/<file> (a file on the hub, or HF_ENDPOINT), a path to a model file, or none',
    ],
  ])('stops on %s with one line saying what to do', async (_, settings, expected) => {
    // Act
    const line = await refusedStart({
      ...hermetic(),
      PORT: String(await freePort()),
      DATA_DIR: 'memory',
      ...settings,
    });

    // Assess
    expect(line).toBe(expected);
  });
});

// One stack, started once for these cases (a start is the slow part of this file), as a
// developer runs it: LevelDB files in DATA_DIR, a generated key, and DYNAMODB_PORT right after
// PORT, not the default. The cases run in order; the last one stops and restarts it.
describe('npm start, running', { timeout: 2 * LIVENESS_BOUND_MS }, () => {
  let server: LocalApiProcess;
  let dataDir: string;
  let port: number;
  let url: string;
  let key: string;

  beforeAll(async () => {
    port = await freePortPair();
    dataDir = await mkdtemp(join(tmpdir(), 'jcc-npm-start-'));
    url = `http://127.0.0.1:${port}`;
    server = spawnLocalApi({
      ...hermetic(),
      PORT: String(port),
      DYNAMODB_PORT: String(port + 1),
      DATA_DIR: dataDir,
      LOCAL_NODE_TIMEZONE: NODE_TIMEZONE,
    });
    await waitForHealth(url, LIVENESS_BOUND_MS, server);
    key = (await readFile(join(dataDir, 'local-node-key'), 'utf8')).trim();
  }, 2 * LIVENESS_BOUND_MS);
  afterAll(async () => {
    await server?.stop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the API with the node key it generated and printed', async () => {
    // Prepare
    const conversationId = conversationIdFor('npm-start');

    // Act
    const started = await createApiClient(url, { key }).post(
      ROUTES.start,
      fixtureStartBody(conversationId),
    );

    // Assess
    expectStarted(started, conversationId);
    expect(key).toMatch(/^local-node:[\w-]{43}$/);
    expect(server.output()).toContain(`X-API-Key: ${key}`);
    expect(server.output()).toContain(`Generated a node key, stored in DATA_DIR (${dataDir}`);
    expect(server.output()).toContain('No language model configured');
  });

  it('refuses a second npm start on the same DATA_DIR in one line naming it', async () => {
    // Act
    const line = await refusedStart({
      ...hermetic(),
      PORT: String(await freePort()),
      DYNAMODB_PORT: String(await freePort()),
      DATA_DIR: dataDir,
    });

    // Assess: the process is the one tsx runs start.ts in, a child of the one spawned here.
    expect(line).toMatch(
      new RegExp(
        `^npm start: DATA_DIR \\(${dataDir}\\) is in use by another npm start \\(process \\d+\\): ` +
          'stop it, or set DATA_DIR to another directory \\(DATA_DIR=memory keeps nothing\\); ' +
          `if no npm start runs, delete ${dataDir}/npm-start\\.json$`,
      ),
    );
  });

  it.each([
    ['PORT', 'the local API', 0],
    ['DYNAMODB_PORT', 'the embedded DynamoDB', 1],
  ] as const)(
    'names %s when it is taken, and suggests a port that is free',
    async (setting, what, offset) => {
      // Prepare: the running stack holds the port, and the one after PORT (its DYNAMODB_PORT).
      const taken = port + offset;
      const other = setting === 'PORT' ? 'DYNAMODB_PORT' : 'PORT';

      // Act
      const line = await refusedStart({
        ...hermetic(),
        [other]: String(await freePort()),
        [setting]: String(taken),
        DATA_DIR: 'memory',
      });

      // Assess
      const suggested = Number(new RegExp(`e\\.g\\. ${setting}=(\\d+) npm start$`).exec(line)?.[1]);
      expect(line).toBe(
        `npm start: 127.0.0.1:${taken} (${setting}, ${what}) is already in use, perhaps by ` +
          `another npm start: stop it, or set ${setting} to a free port, e.g. ${setting}=${suggested} npm start`,
      );
      expect([port, port + 1]).not.toContain(suggested);
      expect(await freePortAfter('127.0.0.1', suggested - 1, [])).toBe(suggested);
    },
  );

  it("registers a node with the README's node:add line, on the DATA_DIR alone", async () => {
    // Act: no DYNAMODB_PORT given; the running npm start says where its database is.
    const { stdout } = await promisify(execFile)(
      join(REPOSITORY_ROOT, 'node_modules', '.bin', 'tsx'),
      ['infra/tools/node-add.ts', '--node-id', 'hall', '--timezone', 'Europe/Berlin'],
      { cwd: REPOSITORY_ROOT, env: { ...hermetic(), DATA_DIR: dataDir } },
    );
    const hallKey = /X-API-Key: (hall:\S+)/.exec(stdout)?.[1] ?? '';
    const conversationId = conversationIdFor('npm-start-hall');
    const started = await createApiClient(url, { key: hallKey }).post(
      ROUTES.start,
      fixtureStartBody(conversationId),
    );

    // Assess
    expect(stdout).toContain(
      `Registered node hall in table jcc-local at http://127.0.0.1:${port + 1}.`,
    );
    expectStarted(started, conversationId);
  });

  it('stops on SIGINT with 0; restarted on the same DATA_DIR, reuses the key and lists every node', async () => {
    // Act
    server.child.kill('SIGINT');
    const exit = await server.exit(LIVENESS_BOUND_MS);
    server = spawnLocalApi({
      ...hermetic(),
      PORT: String(port),
      DYNAMODB_PORT: String(port + 1),
      DATA_DIR: dataDir,
    });
    await waitForHealth(url, LIVENESS_BOUND_MS, server);
    const conversationId = conversationIdFor('npm-start-restart');
    const started = await createApiClient(url, { key }).post(
      ROUTES.start,
      fixtureStartBody(conversationId),
    );

    // Assess
    expect(exit).toEqual({ code: 0, signal: null });
    expectStarted(started, conversationId);
    expect(server.output()).toContain(
      `Reusing the node key stored in DATA_DIR (${join(dataDir, 'local-node-key')})`,
    );
    expect(server.output()).toContain(`X-API-Key: ${key}`);
    expect(server.output()).not.toContain('Generated a node key');
    expect(server.output()).toMatch(/^ {2}nodes {16}hall, local-node$/m);
  });
});

describe('npm start with an invalid setting', { timeout: 2 * LIVENESS_BOUND_MS }, () => {
  it.each([
    [
      { TURN_DEADLINE_MS: 'soon', PARAM_NORMALIZATION: 'sloppy' },
      /^npm start: invalid configuration: .*PARAM_NORMALIZATION.*TURN_DEADLINE_MS/,
    ],
    [
      { LOCAL_NODE_TIMEZONE: 'Mars/Base' },
      /^npm start: LOCAL_NODE_TIMEZONE must be an IANA time zone such as Europe\/Berlin, got "Mars\/Base"$/,
    ],
  ])(
    'names every bad one of %j in one line and exits 1, instead of answering 500 later',
    async (settings, says) => {
      // Act
      const line = await refusedStart({
        ...hermetic(),
        PORT: String(await freePort()),
        DYNAMODB_PORT: String(await freePort()),
        DATA_DIR: 'memory',
        ...settings,
      });

      // Assess
      expect(line).toMatch(says);
    },
  );
});
