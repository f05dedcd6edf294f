import { createRequire } from 'node:module';
import { type BundlingOptions, LogLevel, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/**
 * CommonJS dependencies call `require`, which an ES module does not have; this banner creates one
 * at the top of the bundle. The alias keeps it from clashing with names esbuild emits.
 */
export const createRequireBanner =
  "import { createRequire as jccCreateRequire } from 'node:module'; const require = jccCreateRequire(import.meta.url);";

/**
 * The one description of how a handler is bundled. The CDK stack and the bundle benchmark both
 * derive their esbuild options from it, so the benchmark measures what gets deployed.
 */
export const functionBundling = {
  /** Must match the Lambda runtime (nodejs24.x). */
  target: 'node24',
  minify: true,
  sourceMap: true,
  /** Stack traces need the mappings only; leaving the sources out keeps the map small to load. */
  sourcesContent: false,
  /** Prefer the ES module build of a dependency: it tree-shakes better. */
  mainFields: ['module', 'main'],
  /**
   * The Node.js Lambda runtimes ship AWS SDK v3; not bundling it saves size and cold-start time.
   * The price is that the deployed SDK version is the runtime's, not the lock file's.
   */
  externalModules: ['@aws-sdk/*'],
  banner: createRequireBanner,
} as const;

/** The bundling options of every `NodejsFunction` in the stateless stack. */
export function cdkBundlingOptions(): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    target: functionBundling.target,
    minify: functionBundling.minify,
    sourceMap: functionBundling.sourceMap,
    sourcesContent: functionBundling.sourcesContent,
    mainFields: [...functionBundling.mainFields],
    externalModules: [...functionBundling.externalModules],
    banner: functionBundling.banner,
    logLevel: LogLevel.WARNING,
  };
}

/** The same bundle through the esbuild API (what `cdkBundlingOptions` makes the CDK run). */
export function esbuildBuildOptions(entryPoint: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: functionBundling.target,
    minify: functionBundling.minify,
    sourcemap: functionBundling.sourceMap,
    sourcesContent: functionBundling.sourcesContent,
    mainFields: [...functionBundling.mainFields],
    external: [...functionBundling.externalModules],
    banner: { js: functionBundling.banner },
    logLevel: 'warning',
  };
}

/** esbuild is not installed where the CDK looks for it, so the CDK would try Docker instead. */
export class LocalBundlerMissingError extends Error {
  override readonly name = 'LocalBundlerMissingError';
  constructor(options?: { cause?: unknown }) {
    super(
      'esbuild is not installed in node_modules: run `npm ci`. The stacks bundle with the local ' +
        'esbuild only; without it the CDK would fall back to Docker bundling, which is not supported here.',
      options,
    );
  }
}

/**
 * Throws `LocalBundlerMissingError` unless esbuild resolves from the repository, because the CDK
 * silently falls back to a Docker build when it cannot find a local esbuild.
 */
export function assertLocalBundler(): void {
  try {
    createRequire(import.meta.url).resolve('esbuild');
  } catch (cause) {
    throw new LocalBundlerMissingError({ cause });
  }
}
