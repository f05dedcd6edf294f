import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRequireBanner } from '../../../infra/stacks/function-bundling';
import { statefulStackName, statelessStackName } from '../../../infra/stacks/jcc-app';
import {
  functionLogicalId,
  repositoryRoot,
  voiceFunctions,
} from '../../../infra/stacks/voice-routes';
import { sharedJccApp } from '../shared-jcc-apps';

interface TemplateResource {
  readonly Type: string;
  readonly Metadata?: Record<string, unknown>;
  readonly Properties: { readonly Environment?: { readonly Variables: Record<string, unknown> } };
}

// The one synth that really bundles, and registers cdk-nag, as `cdk synth` with infra/app.ts
// does (any unacknowledged nag finding makes it throw): shared by the infra tests of this run.
const synthesized = sharedJccApp('deployed');
/** The stateless template as written to disk: the file `sam local -t` reads. */
const statelessResources: Record<string, TemplateResource> = JSON.parse(
  readFileSync(join(synthesized.outdir, `${statelessStackName}.template.json`), 'utf8'),
).Resources;

describe('cdk-nag AwsSolutions checks', () => {
  it('report no unacknowledged error or warning on the whole app', () => {
    // Prepare / Act: the report of the checks run on the synthesized app.
    const report = synthesized.nag;

    // Assess
    expect(report?.violations).toEqual([]);
    expect(report?.success).toBe(true);
  });

  it('are acknowledged only with a reason', () => {
    // Prepare
    const acknowledgements = synthesized.acknowledgements();

    // Act
    const withoutReason = acknowledgements.filter(
      ([, reason]) => typeof reason !== 'string' || reason.length < 40,
    );

    // Assess
    expect(acknowledgements.length).toBeGreaterThan(0);
    expect(withoutReason).toEqual([]);
  });
});

describe.each([statefulStackName, statelessStackName])('the %s stack', (name) => {
  it('carries no CDK warning or error annotation', () => {
    // Prepare
    const messages = synthesized.messages(name);

    // Act
    const found = messages.filter((message) => message.level !== 'info');

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
