import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DownloadEvent,
  ensureModelFile,
  type HubFile,
  type ModelCacheSettings,
} from '../../../../infra/local/model-files';
import { FakeTiming } from '../../../support/fake-timing';
import { ggufBytes, sha256Of, startScriptedHubServer } from '../../../support/scripted-hub-server';
import { useLoopbackServer } from '../../../support/use-loopback-server';

const hub = useLoopbackServer('scripted hub', startScriptedHubServer);

let cacheDir: string;
beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'model-cache-'));
});
afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

const settings = (): ModelCacheSettings => ({ cacheDir, endpoint: hub.endpoint });

function recorder() {
  const events: DownloadEvent[] = [];
  return { events, progress: { report: (event: DownloadEvent) => events.push(event) } };
}

const fileGets = (name: string) =>
  hub.requests.filter((request) => request.method === 'GET' && request.path.endsWith(name));

describe('ensureModelFile', () => {
  it('downloads through the hub redirect once, checks the pinned digest, then serves the cache with no request', async () => {
    // Prepare
    const body = ggufBytes(300_000);
    hub.serve('acme/tiny-GGUF', 'sub/tiny-Q4_K_M.gguf', { body });
    const file: HubFile = {
      repo: 'acme/tiny-GGUF',
      file: 'sub/tiny-Q4_K_M.gguf',
      sha256: sha256Of(body),
      sizeBytes: body.length,
    };
    const { events, progress } = recorder();
    const timing = new FakeTiming({ instantSleeps: false });

    // Act
    const path = await ensureModelFile(file, settings(), { progress, timing });
    const requestsAfterFirst = hub.requests.length;
    const again = await ensureModelFile(file, settings(), { progress, timing });

    // Assess
    expect(path).toBe(join(cacheDir, 'acme', 'tiny-GGUF', 'sub', 'tiny-Q4_K_M.gguf'));
    expect(again).toBe(path);
    expect(await readFile(path)).toEqual(body);
    expect(hub.requests.map((request) => request.path)).toEqual([
      '/acme/tiny-GGUF/resolve/main/sub/tiny-Q4_K_M.gguf',
      '/cdn/acme/tiny-GGUF/sub/tiny-Q4_K_M.gguf',
    ]);
    expect(hub.requests.length).toBe(requestsAfterFirst);
    expect(events[0]).toMatchObject({ kind: 'started', totalBytes: body.length, resumedBytes: 0 });
    expect(events.at(-1)).toMatchObject({ kind: 'finished', path, bytes: body.length });
    expect((await readdir(join(cacheDir, 'acme', 'tiny-GGUF', 'sub'))).sort()).toEqual([
      'tiny-Q4_K_M.gguf',
      'tiny-Q4_K_M.gguf.verified.json',
    ]);
    expect(fileGets('tiny-Q4_K_M.gguf')).toHaveLength(2);
    expect((await stat(path)).size).toBe(body.length);
  });
});
