import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BundlingOptions, DockerImage } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import {
  HandlerBundlingError,
  LocalHandlerBundler,
} from '../../infra/bundling/local-handler-bundler';
import { createRequireBanner } from '../../infra/stacks/function-bundling';
import { repositoryRoot } from '../../infra/stacks/voice-routes';
import { captureProcessOutput } from '../support/local-stack-harness';
import { useCacheDirectories } from './cache-directory';

const newDirectory = useCacheDirectories('jcc-local-bundler-');
// The CDK passes its bundling options to tryBundle; the local bundler reads none of them.
const dockerOptions: BundlingOptions = { image: DockerImage.fromRegistry('unused') };

describe('LocalHandlerBundler', () => {
  it('bundles the entry in a child process into index.mjs and its map, and says it did', () => {
    // Prepare
    const outputDirectory = newDirectory();
    const bundler = new LocalHandlerBundler(
      join(repositoryRoot, 'functions', 'conversation-start.ts'),
      repositoryRoot,
    );

    // Act
    const bundled = bundler.tryBundle(outputDirectory, dockerOptions);

    // Assess
    expect(bundled).toBe(true);
    const code = readFileSync(join(outputDirectory, 'index.mjs'), 'utf8');
    expect(code.split('\n', 1)[0]).toBe(createRequireBanner);
    expect(existsSync(join(outputDirectory, 'index.mjs.map'))).toBe(true);
  });

  it('throws with esbuild’s message instead of letting the CDK fall back to Docker', () => {
    // Prepare
    const bundler = new LocalHandlerBundler(
      join(repositoryRoot, 'functions', 'missing.ts'),
      repositoryRoot,
    );

    const output = captureProcessOutput(false);

    // Act
    let thrown: unknown;
    try {
      bundler.tryBundle(newDirectory(), dockerOptions);
    } catch (error) {
      thrown = error;
    } finally {
      output.restore();
    }

    // Assess: the error carries esbuild's message, which also went to the synth's output (here
    // captured, so that a passing run prints no "✘ [ERROR]").
    expect(thrown).toBeInstanceOf(HandlerBundlingError);
    expect(String(thrown)).toMatch(
      /bundling .*missing\.ts failed \(exit 1\): .*Could not resolve/s,
    );
    expect(output.lines.join('')).toContain('Could not resolve');
  });
});
