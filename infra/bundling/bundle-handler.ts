// The child process of `LocalHandlerBundler`: the CDK bundles synchronously, esbuild plugins run
// only in the asynchronous API, so the build runs here. Usage: bundle-handler.ts <entry> <outdir>.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { esbuildBuildOptions, functionBundling } from '../stacks/function-bundling';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Bundles the handler `entryPoint` into `outputDirectory` exactly as the stack deploys it, with
 * the isolation worker's own bundle beside it (the handler starts it on its first untrusted work).
 */
export async function bundleHandler(entryPoint: string, outputDirectory: string): Promise<void> {
  await build(esbuildBuildOptions(entryPoint, join(outputDirectory, functionBundling.outputFile)));
  await build(
    esbuildBuildOptions(
      join(repositoryRoot, functionBundling.workerEntry),
      join(outputDirectory, functionBundling.workerOutputFile),
    ),
  );
}

const [, script, entryPoint, outputDirectory] = process.argv;
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  if (entryPoint === undefined || outputDirectory === undefined) {
    console.error('usage: bundle-handler.ts <entry point> <output directory>');
    process.exitCode = 2;
  } else {
    // esbuild has printed the errors already; a non-zero exit is all the parent needs.
    await bundleHandler(entryPoint, outputDirectory).catch(() => {
      process.exitCode = 1;
    });
  }
}
