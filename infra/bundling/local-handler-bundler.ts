import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BundlingOptions, ILocalBundling } from 'aws-cdk-lib';

/** The TypeScript loader the child process runs with (the repository's tsx). */
const tsxLoader = (): string => pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const bundleScript = fileURLToPath(new URL('./bundle-handler.ts', import.meta.url));
/** Bundling takes about a second; this only stops a hung child from hanging the synth. */
const bundlingTimeoutMs = 120_000;

/** The bundling child process failed: the handler could not be built. */
export class HandlerBundlingError extends Error {
  override readonly name = 'HandlerBundlingError';
}

/**
 * Bundles one handler on this machine for `Code.fromAsset`. The CDK calls `tryBundle`
 * synchronously, so it runs bundle-handler.ts in a child Node process and waits. It never
 * returns false (which would make the CDK try Docker): it succeeds or throws.
 */
export class LocalHandlerBundler implements ILocalBundling {
  /**
   * Public on purpose: the CDK caches bundled assets by the JSON of the bundling options, so the
   * entry must show in it or two functions with the same source directory would share a bundle.
   */
  readonly entryPoint: string;
  readonly workingDirectory: string;

  constructor(entryPoint: string, workingDirectory: string) {
    this.entryPoint = entryPoint;
    this.workingDirectory = workingDirectory;
  }

  tryBundle(outputDir: string, _options: BundlingOptions): boolean {
    const child = spawnSync(
      process.execPath,
      ['--import', tsxLoader(), bundleScript, this.entryPoint, outputDir],
      { cwd: this.workingDirectory, encoding: 'utf8', timeout: bundlingTimeoutMs },
    );
    // esbuild's warnings (it prints nothing else at its log level) belong in the synth's output.
    if (child.stderr) process.stderr.write(child.stderr);
    if (child.error !== undefined || child.status !== 0) {
      throw new HandlerBundlingError(
        `bundling ${this.entryPoint} failed (${child.error?.message ?? `exit ${child.status}`}): ` +
          `${child.stderr.trim()}`,
        child.error === undefined ? {} : { cause: child.error },
      );
    }
    return true;
  }
}
