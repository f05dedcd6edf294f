import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('npm start', () => {
  // aws-cdk-lib cost the local API's process 0.4 s of CPU at start and 12 MB of live heap that
  // every major garbage collection marks (the attack bench charged it to hostile requests).
  it('imports nothing of aws-cdk-lib, directly or through the stack code it shares', async () => {
    // Act
    const result = await build({
      entryPoints: ['infra/local/start.ts'],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    });

    // Assess
    const imported = Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
      input.imports.filter((entry) => entry.external).map((entry) => `${file} -> ${entry.path}`),
    );
    expect(imported.length).toBeGreaterThan(3);
    expect(imported.filter((line) => /-> (aws-cdk-lib|constructs)\b/.test(line))).toEqual([]);
  });
});
