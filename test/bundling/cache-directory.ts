import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { repositoryRoot } from '../../infra/stacks/voice-routes';

/**
 * Fresh directories under node_modules/.cache, removed after the calling file's tests: there a
 * bundle resolves its external `@aws-sdk/*` imports as a deployed one does from the runtime.
 */
export function useCacheDirectories(prefix: string): () => string {
  const created: string[] = [];
  afterAll(() => {
    for (const directory of created) rmSync(directory, { recursive: true, force: true });
  });
  return () => {
    const cache = join(repositoryRoot, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const directory = mkdtempSync(join(cache, prefix));
    created.push(directory);
    return directory;
  };
}
