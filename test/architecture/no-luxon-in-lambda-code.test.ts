import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Everything esbuild can pull into a Lambda bundle.
const LAMBDA_CODE = ['shared', 'functions'];

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

describe('the Lambda code', () => {
  // luxon cost the voice bundles 70 KB over their 500 KB budget; shared/conversation/time-zones
  // does the zone math on Intl. luxon stays a devDependency, as the tests' oracle.
  it('imports no luxon', async () => {
    // Prepare
    const files = (await Promise.all(LAMBDA_CODE.map(sourceFiles))).flat();
    expect(files.length).toBeGreaterThan(50);

    // Act
    const offenders: string[] = [];
    for (const file of files) {
      const source = await readFile(join(root, file), 'utf8');
      if (/from 'luxon'|import\('luxon'\)|require\('luxon'\)/.test(source)) offenders.push(file);
    }

    // Assess
    expect(offenders).toEqual([]);
  });
});
