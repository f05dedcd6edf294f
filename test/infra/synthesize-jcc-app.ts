import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { addJccStacks, type JccStacks } from '../../infra/stacks/jcc-app';
import { repositoryRoot } from '../../infra/stacks/voice-routes';

/**
 * What `cdk synth` adds to the context on its own (`assetMetadata`, `pathMetadata` in cdk.json):
 * without it an in-process synth would lack the metadata `sam local` reads.
 */
export const cliEquivalentContext = {
  'aws:cdk:enable-asset-metadata': true,
  'aws:cdk:enable-path-metadata': true,
} as const;

/** The `context` of cdk.json: settings and feature flags, as the CLI passes them. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson: unknown = JSON.parse(readFileSync(join(repositoryRoot, 'cdk.json'), 'utf8'));
  if (typeof cdkJson !== 'object' || cdkJson === null || !('context' in cdkJson)) {
    throw new Error('cdk.json has no context');
  }
  const { context } = cdkJson;
  if (typeof context !== 'object' || context === null)
    throw new Error('cdk.json context is not an object');
  return { ...context };
}

export interface SynthesizedJccApp extends JccStacks {
  readonly app: App;
  readonly assembly: CloudAssembly;
  readonly outdir: string;
  readonly statefulTemplate: Template;
  readonly statelessTemplate: Template;
}

export interface SynthesizeOptions {
  /** Run esbuild for the functions (seconds); without it the asset is a placeholder. */
  readonly bundle: boolean;
  /** Context on top of cdk.json's, as `cdk synth -c key=value` would give. */
  readonly context?: Readonly<Record<string, unknown>>;
  /** Runs after the stacks are added and before the synth, as `infra/app.ts` adds the nag plugin. */
  readonly prepare?: (app: App) => void;
  /** Where the cloud assembly goes; a fresh temporary directory without it. */
  readonly outdir?: string;
}

/** Synthesizes the app in-process as `cdk synth` would. */
export function synthesizeJccApp(options: SynthesizeOptions): SynthesizedJccApp {
  const outdir = options.outdir ?? mkdtempSync(join(tmpdir(), 'jcc-cdk-'));
  const app = new App({
    outdir,
    context: {
      ...cdkJsonContext(),
      ...cliEquivalentContext,
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      ...options.context,
    },
  });
  const stacks = addJccStacks(app);
  options.prepare?.(app);
  const assembly = app.synth();
  return {
    ...stacks,
    app,
    assembly,
    outdir,
    statefulTemplate: Template.fromStack(stacks.stateful),
    statelessTemplate: Template.fromStack(stacks.stateless),
  };
}
