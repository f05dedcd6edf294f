import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalStack } from '../../../infra/local/local-stack';
import { ModelNotFoundError } from '../../../infra/local/model-files';
import { withoutStackVariables } from '../../support/local-stack-harness';
import { startScriptedHubServer } from '../../support/scripted-hub-server';

describe("npm start's first start: the language and speech model files", () => {
  it('are fetched side by side: a language model the hub lacks does not hold back the speech one', async () => {
    // Prepare: the hub has the speech file and no language model file.
    const hub = await startScriptedHubServer();
    hub.serve('someone/speech', 'ggml-tiny.bin', { body: Buffer.from('ggml model bytes') });
    const cache = await mkdtemp(join(tmpdir(), 'jcc-side-by-side-'));
    const env = {
      ...withoutStackVariables(process.env),
      PORT: '0',
      DYNAMODB_PORT: '0',
      DATA_DIR: 'memory',
      LLM_MODEL: 'hf:someone/missing-GGUF/missing.gguf',
      STT_ENGINE: 'whisper',
      STT_MODEL: 'hf:someone/speech/ggml-tiny.bin',
      HF_ENDPOINT: hub.endpoint,
      MODEL_CACHE_DIR: cache,
    };

    try {
      // Act
      const started = startLocalStack(env);

      // Assess: the start fails on the language model, after the speech file was fetched.
      await expect(started).rejects.toBeInstanceOf(ModelNotFoundError);
      expect(hub.requests.map((request) => request.path)).toContain(
        '/someone/speech/resolve/main/ggml-tiny.bin',
      );
    } finally {
      await hub.close();
      await rm(cache, { recursive: true, force: true });
    }
  });
});
