import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localSpeechModel } from '../../../infra/local/local-speech-model';
import { ModelDownloadError } from '../../../infra/local/model-files';
import { freePort } from '../../support/free-port';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("localSpeechModel: npm start's default speech model (Moonshine)", () => {
  it('a failed download says how to hear without it: STT_MODEL or a speech server, not LLM_MODEL', async () => {
    // Prepare: a hub that refuses every connection, an empty cache.
    const port = await freePort();
    const cacheDir = mkdtempSync(join(tmpdir(), 'jcc-moonshine-'));
    folders.push(cacheDir);
    const silent = { report: () => undefined };

    // Act
    const failure = await localSpeechModel(
      { HF_ENDPOINT: `http://127.0.0.1:${port}`, MODEL_CACHE_DIR: cacheDir },
      silent,
    ).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(ModelDownloadError);
    const message = (failure as Error).message;
    expect(message).toContain('(STT_MODEL=/path/to/folder) or a speech server (STT_BASE_URL=...)');
    expect(message).not.toContain('LLM_MODEL');
  });
});
