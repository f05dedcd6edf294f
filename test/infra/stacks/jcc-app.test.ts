import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequireBanner } from '../../../infra/stacks/function-bundling';
import { statelessStackName } from '../../../infra/stacks/jcc-app';
import {
  functionLogicalId,
  repositoryRoot,
  voiceFunctions,
} from '../../../infra/stacks/voice-routes';
import { type SynthesizedJccApp, synthesizeJccApp } from '../synthesize-jcc-app';

interface TemplateResource {
  readonly Type: string;
  readonly Metadata?: Record<string, unknown>;
  readonly Properties: { readonly Environment?: { readonly Variables: Record<string, unknown> } };
}

let synthesized: SynthesizedJccApp;
/** The stateless template as written to disk: the file `sam local -t` reads. */
let statelessResources: Record<string, TemplateResource>;

// The one synth that really bundles, and registers cdk-nag, as `cdk synth` with infra/app.ts
// does: any unacknowledged nag finding makes it throw here, with the report.
beforeAll(() => {
  synthesized = synthesizeJccApp({
    bundle: true,
    prepare: (app) => Validations.of(app).addPlugins(new AwsSolutionsChecks(app)),
  });
  const templatePath = join(synthesized.outdir, `${statelessStackName}.template.json`);
  statelessResources = JSON.parse(readFileSync(templatePath, 'utf8')).Resources;
});
// Guarded: when the synth itself fails there is nothing to remove.
afterAll(() => {
  if (synthesized !== undefined) rmSync(synthesized.outdir, { recursive: true, force: true });
});

describe('cdk-nag AwsSolutions checks', () => {
  it('report no unacknowledged error or warning on the whole app', () => {
    // Prepare
    const checks = new AwsSolutionsChecks();

    // Act
    const report = checks.validateScope(synthesized.app);

    // Assess
    expect(report.violations.map((violation) => violation.ruleName)).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('are acknowledged only with a reason', () => {
    // Prepare
    const acknowledgements = synthesized.app.node
      .findAll()
      .flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry): [string, unknown][] => Object.entries(entry.data));

    // Act
    const withoutReason = acknowledgements.filter(
      ([, reason]) => typeof reason !== 'string' || reason.length < 40,
    );

    // Assess
    expect(acknowledgements.length).toBeGreaterThan(0);
    expect(withoutReason).toEqual([]);
  });
});

describe.each(['stateful', 'stateless'] as const)('the %s stack', (name) => {
  it('carries no CDK warning or error annotation', () => {
    // Prepare
    const annotations = Annotations.fromStack(synthesized[name]);

    // Act
    const found = [
      ...annotations.findWarning('*', Match.anyValue()),
      ...annotations.findError('*', Match.anyValue()),
    ];

    // Assess
    expect(found.map((message) => `${message.id}: ${String(message.entry.data)}`)).toEqual([]);
  });
});

describe.each(voiceFunctions)('the synthesized $name function', (route) => {
  const resource = (): TemplateResource => {
    const found = statelessResources[functionLogicalId(route)];
    if (found === undefined) throw new Error(`no function ${functionLogicalId(route)}`);
    return found;
  };
  const assetDirectory = () =>
    join(synthesized.outdir, String(resource().Metadata?.['aws:asset:path']));

  it('tells sam local where its code is (asset metadata) and that it is a CDK resource', () => {
    expect(resource().Metadata).toMatchObject({
      'aws:asset:path': expect.stringMatching(/^asset\./),
      'aws:asset:property': 'Code',
      'aws:cdk:path': `${statelessStackName}/${route.id}/Function/Resource`,
    });
    expect(existsSync(assetDirectory())).toBe(true);
  });

  it('is bundled by the local esbuild: one ES module with the banner and its source map', () => {
    // Prepare
    const code = readFileSync(join(assetDirectory(), 'index.mjs'), 'utf8');

    // Act
    const firstLine = code.split('\n', 1)[0];

    // Assess
    expect(firstLine).toBe(createRequireBanner);
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b[^}]*\}/);
    expect(code.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map')).toBe(true);
    expect(existsSync(join(assetDirectory(), 'index.mjs.map'))).toBe(true);
  });

  it('is the chat-only build of the openai SDK: the resources it never calls are stubs', () => {
    // Prepare
    const code = readFileSync(join(assetDirectory(), 'index.mjs'), 'utf8');

    // Act / Assess
    expect(code).toContain('OpenAiNotInThisBuildError');
    expect(code).toContain('"resources/responses/responses.mjs"');
  });

  it('declares every variable infra/sam/env.json overrides', () => {
    // Prepare
    const environmentFile = JSON.parse(
      readFileSync(join(repositoryRoot, 'infra', 'sam', 'env.json'), 'utf8'),
    );
    const declared = Object.keys(resource().Properties.Environment?.Variables ?? {});

    // Act
    const undeclared = Object.keys(environmentFile.Parameters).filter(
      (name) => !declared.includes(name),
    );

    // Assess
    expect(undeclared).toEqual([]);
  });
});

describe('the function assets', () => {
  it('are one bundle per handler, not one bundle shared through the asset cache', () => {
    // Prepare / Act
    const assetPaths = voiceFunctions.map(
      (route) => statelessResources[functionLogicalId(route)]?.Metadata?.['aws:asset:path'],
    );

    // Assess
    expect(new Set(assetPaths).size).toBe(voiceFunctions.length);
  });
});
