// The child process of `LocalHandlerBundler`: the CDK bundles synchronously, esbuild plugins run
// only in the asynchronous API, so the build runs here. Usage: bundle-handler.ts <entry> <outdir>.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { esbuildBuildOptions, functionBundling } from '../stacks/function-bundling';

/** Bundles the handler `entryPoint` into `outputDirectory` exactly as the stack deploys it. */
export async function bundleHandler(entryPoint: string, outputDirectory: string): Promise<void> {
  await build(esbuildBuildOptions(entryPoint, join(outputDirectory, functionBundling.outputFile)));
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
