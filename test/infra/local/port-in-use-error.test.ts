import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalStack } from '../../../infra/local/local-stack';
import { freePortAfter, PortInUseError } from '../../../infra/local/port-in-use-error';
import { listenOnFreePort } from '../../support/free-port';
import { withoutStackVariables } from '../../support/local-stack-harness';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** Listens on `port` (0: any); resolves with the port, or null when it is taken. */
const listen = (port: number) =>
  new Promise<number | null>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve((server.address() as { port: number }).port);
    });
  });

describe('freePortAfter', () => {
  it('skips a port in use (another npm start on the next one) and the reserved ones', async () => {
    // Prepare: the busy port, and the next one taken too, as another npm start's DYNAMODB_PORT.
    const busy = await listen(0);
    if (busy === null) throw new Error('no port');
    await listen(busy + 1);

    // Act
    const suggested = await freePortAfter('127.0.0.1', busy, [busy + 2]);

    // Assess: later than all three, and free (this test can listen on it).
    expect(suggested).toBeGreaterThan(busy + 2);
    expect(await listen(suggested ?? 0)).toBe(suggested);
  });
});

describe('PortInUseError', () => {
  it('names the setting and the suggestion, or only the setting when none was found', () => {
    expect(new PortInUseError('PORT', '127.0.0.1', 3000, 3002).message).toBe(
      '127.0.0.1:3000 (PORT, the local API) is already in use, perhaps by another npm start: ' +
        'stop it, or set PORT to a free port, e.g. PORT=3002 npm start',
    );
    expect(new PortInUseError('DYNAMODB_PORT', '127.0.0.1', 8000, null).message).toBe(
      '127.0.0.1:8000 (DYNAMODB_PORT, the embedded DynamoDB) is already in use, perhaps by ' +
        'another npm start: stop it, or set DYNAMODB_PORT to a free port',
    );
  });
});

describe('npm start with its PORT taken', () => {
  it('says so before it fetches or loads a model', async () => {
    // Prepare: the port taken, and a model host that counts what it is asked.
    const taken = await listen(0);
    if (taken === null) throw new Error('no port');
    const requests: string[] = [];
    const hub = createHttpServer((request, response) => {
      requests.push(request.url ?? '');
      response.writeHead(404).end();
    });
    const hubPort = await listenOnFreePort(hub);
    const env = {
      ...withoutStackVariables(process.env),
      PORT: String(taken),
      DATA_DIR: 'memory',
      LLM_MODEL: 'hf:someone/some-model-GGUF/some-model.gguf',
      HF_ENDPOINT: `http://127.0.0.1:${hubPort}`,
      MODEL_CACHE_DIR: await mkdtemp(join(tmpdir(), 'jcc-port-first-')),
    };

    try {
      // Act
      const started = startLocalStack(env);

      // Assess
      await expect(started).rejects.toBeInstanceOf(PortInUseError);
      await expect(started).rejects.toMatchObject({ setting: 'PORT', port: taken });
      expect(requests).toEqual([]);
    } finally {
      await new Promise((resolve) => hub.close(resolve));
      await rm(env.MODEL_CACHE_DIR, { recursive: true, force: true });
    }
  });
});
