import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assertLocalBundler,
  cdkBundlingOptions,
  esbuildBuildOptions,
  functionBundling,
} from '../../../infra/stacks/function-bundling';
import { functionRuntime } from '../../../infra/stacks/voice-function';
import { repositoryRoot } from '../../../infra/stacks/voice-routes';

describe('functionBundling', () => {
  it('targets the Node version of the Lambda runtime', () => {
    // Prepare
    const runtimeVersion = functionRuntime.name.replace(/^nodejs(\d+)\.x$/, '$1');

    // Act / Assess
    expect(functionBundling.target).toBe(`node${runtimeVersion}`);
    expect(functionRuntime).toBe(Runtime.NODEJS_24_X);
  });
});

describe('cdkBundlingOptions and esbuildBuildOptions', () => {
  const cdk = cdkBundlingOptions();
  const esbuild = esbuildBuildOptions('entry.ts', 'out/index.mjs');

  it.each([
    ['format', cdk.format, esbuild.format],
    ['target', cdk.target, esbuild.target],
    ['minify', cdk.minify, esbuild.minify],
    ['source map', cdk.sourceMap, esbuild.sourcemap],
    ['sources content', cdk.sourcesContent, esbuild.sourcesContent],
    ['main fields', cdk.mainFields, esbuild.mainFields],
    ['externals', cdk.externalModules, esbuild.external],
    ['banner', cdk.banner, esbuild.banner?.js],
  ])('agree on %s, so the benchmark measures what is deployed', (_name, fromCdk, fromEsbuild) => {
    // Prepare / Act / Assess
    expect(fromCdk).toEqual(fromEsbuild);
  });

  it('bundles minified ES modules with source maps and the SDK left to the runtime', () => {
    // Prepare / Act / Assess
    expect(esbuild).toMatchObject({
      bundle: true,
      platform: 'node',
      format: 'esm',
      minify: true,
      sourcemap: true,
      external: ['@aws-sdk/*'],
    });
  });
});

describe('the createRequire banner', () => {
  const directories: string[] = [];
  // Under node_modules so the bundle resolves packages as a deployed one would.
  const workDirectory = (): string => {
    const cache = join(repositoryRoot, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const directory = mkdtempSync(join(cache, 'jcc-bundling-test-'));
    directories.push(directory);
    return directory;
  };
  afterAll(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  const bundleCommonJsDependency = async (withBanner: boolean): Promise<string> => {
    const directory = workDirectory();
    writeFileSync(
      join(directory, 'legacy.cjs'),
      "module.exports = { separator: require('node:path').sep };",
    );
    writeFileSync(
      join(directory, 'entry.ts'),
      "import legacy from './legacy.cjs';\nexport const handler = async () => legacy.separator;\n",
    );
    const outfile = join(directory, 'out', 'index.mjs');
    const options = esbuildBuildOptions(join(directory, 'entry.ts'), outfile);
    await build(withBanner ? options : { ...options, banner: {} });
    return pathToFileURL(outfile).href;
  };

  it('lets a CommonJS dependency call require inside the ES module bundle', async () => {
    // Prepare
    const bundle = await bundleCommonJsDependency(true);

    // Act
    const loaded: { handler: () => Promise<string> } = await import(bundle);

    // Assess
    expect(await loaded.handler()).toBe('/');
  });

  it('is needed: without it the same bundle fails to load', async () => {
    // Prepare
    const bundle = await bundleCommonJsDependency(false);

    // Act
    const loading = import(bundle);

    // Assess
    await expect(loading).rejects.toThrow(/Dynamic require of "node:path" is not supported/);
  });
});

describe('assertLocalBundler', () => {
  it('finds the repository esbuild, so the CDK never falls back to Docker', () => {
    // Prepare / Act / Assess
    expect(() => assertLocalBundler()).not.toThrow();
  });
});
