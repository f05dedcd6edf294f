import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

/** A new folder under the temp folder for a test model, removed by `removeTestModelFolders`. */
export async function testModelFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  made.push(folder);
  return folder;
}

/**
 * Removes, after the test file's tests, the model folders it made (a whisper test model is
 * 6.8 MB: left behind, every run's copies would pile up). Called at a test file's top level.
 */
export function removeTestModelFoldersAfterAll(): void {
  afterAll(async () => {
    await Promise.all(made.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });
}
