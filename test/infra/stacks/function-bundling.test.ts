import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assertLocalBundler,
  createRequireBanner,
  esbuildBuildOptions,
  functionBundling,
  lambdaHandlerName,
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

describe('esbuildBuildOptions', () => {
  const options = esbuildBuildOptions('entry.ts', 'out/index.mjs');

  it('bundles minified ES modules with source maps and the SDK left to the runtime', () => {
    expect(options).toMatchObject({
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: functionBundling.target,
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      mainFields: ['module', 'main'],
      external: ['@aws-sdk/*'],
      banner: { js: createRequireBanner },
    });
  });

  it('runs the chat-only openai plugin', () => {
    // Prepare / Act
    const pluginNames = (options.plugins ?? []).map((plugin) => plugin.name);

    // Assess
    expect(pluginNames).toEqual(['openai-chat-only']);
  });

  it('fails the build on an import that matches no export instead of shipping an undefined', () => {
    expect(options.logOverride).toEqual({ 'import-is-undefined': 'error' });
  });
});

describe('lambdaHandlerName', () => {
  it('names the handler export of the bundle file: index.handler', () => {
    expect(lambdaHandlerName).toBe('index.handler');
    expect(functionBundling.outputFile).toBe('index.mjs');
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
    expect(() => assertLocalBundler()).not.toThrow();
  });
});
