import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { TestProject } from 'vitest/node';
import {
  assemblyDirectory,
  naggedVariants,
  recordFile,
  type SharedJccAppVariant,
  type SynthesisRecord,
  sharedJccAppVariants,
} from './shared-jcc-apps';
import { type SynthesizeOptions, synthesizeJccApp } from './synthesize-jcc-app';

/** Synthesizes into `outdir`; a failure is recorded, with cdk-nag's report when `nag` is on. */
export const synthesisRecord = (
  options: SynthesizeOptions & { readonly outdir: string },
  nag: boolean,
): SynthesisRecord => {
  try {
    const synthesized = synthesizeJccApp(options);
    if (!nag) return { ok: true };
    const report = new AwsSolutionsChecks().validateScope(synthesized.app);
    return {
      ok: true,
      nag: {
        success: report.success,
        violations: report.violations.map((violation) => violation.ruleName),
      },
    };
  } catch (error) {
    // Recorded, not thrown: the tests that read this app fail with it, the others still run.
    return {
      ok: false,
      error: error instanceof Error ? (error.stack ?? error.message) : `${error}`,
    };
  }
};

/**
 * Vitest global setup of the infra project: synthesizes every shared app once, in the main
 * process, where no hook timeout applies, and hands the tests the directory.
 */
export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'jcc-cdk-shared-'));
  for (const variant of Object.keys(sharedJccAppVariants) as SharedJccAppVariant[]) {
    const options = { ...sharedJccAppVariants[variant], outdir: assemblyDirectory(root, variant) };
    const record = synthesisRecord(options, naggedVariants.includes(variant));
    writeFileSync(recordFile(root, variant), JSON.stringify(record));
  }
  project.provide('jccAssemblyRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
