import { createRequire } from 'node:module';
import type { BuildOptions } from 'esbuild';
import { openAiChatOnlyPlugin } from '../bundling/openai-chat-only-plugin';

/**
 * CommonJS dependencies call `require`, which an ES module does not have; this banner creates one
 * at the top of the bundle. The alias keeps it from clashing with names esbuild emits.
 */
export const createRequireBanner =
  "import { createRequire as jccCreateRequire } from 'node:module'; const require = jccCreateRequire(import.meta.url);";

/**
 * The one description of how a handler is bundled. The CDK stack (through `handlerCode`) and the
 * bundle benchmark both build with `esbuildBuildOptions`, so the benchmark measures what is deployed.
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
  /** The bundle's file name in the asset; an ES module, so the runtime loads it as one. */
  outputFile: 'index.mjs',
  /**
   * The isolation worker (shared/adapters/isolation), a second entry bundled beside `outputFile`:
   * the adapter loads it with `new URL('./isolation-worker.mjs', import.meta.url)`.
   */
  workerEntry: 'shared/adapters/isolation/isolation-worker.ts',
  workerOutputFile: 'isolation-worker.mjs',
  /** The export every entry provides; with `outputFile` it makes the function's `index.handler`. */
  handlerExport: 'handler',
  /**
   * Only the Chat Completions part of the openai SDK is bundled; the rest becomes stubs that throw
   * if reached (infra/bundling/openai-chat-only.ts, docs/decisions/2026-11-22-bundle-size.md).
   */
  openAiChatOnly: true,
} as const;

/** The Lambda `handler` setting that matches the bundle, e.g. `index.handler`. */
export const lambdaHandlerName = `${functionBundling.outputFile.replace(/\.m?js$/, '')}.${functionBundling.handlerExport}`;

/** The esbuild options that bundle one handler entry into `outfile`, as deployed. */
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
    plugins: functionBundling.openAiChatOnly ? [openAiChatOnlyPlugin()] : [],
    logLevel: 'warning',
    // A named import that matches no export is undefined at run time; esbuild only warns. An error
    // instead, so a stub missing a name (or any such slip) fails the build, not a request.
    logOverride: { 'import-is-undefined': 'error' },
  };
}

/** esbuild is not installed in the repository, so no handler can be bundled. */
export class LocalBundlerMissingError extends Error {
  override readonly name = 'LocalBundlerMissingError';
  constructor(options?: { cause?: unknown }) {
    super(
      'esbuild is not installed in node_modules: run `npm ci`. The stacks bundle the handlers with ' +
        'the local esbuild only (with a plugin, which Docker bundling could not run).',
      options,
    );
  }
}

/**
 * Throws `LocalBundlerMissingError` unless esbuild resolves from the repository, so a missing
 * install fails the synth at once with the fix, not in the middle of bundling.
 */
export function assertLocalBundler(): void {
  try {
    createRequire(import.meta.url).resolve('esbuild');
  } catch (cause) {
    throw new LocalBundlerMissingError({ cause });
  }
}
