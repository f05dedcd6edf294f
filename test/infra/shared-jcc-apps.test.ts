import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFile, sharedJccApp } from './shared-jcc-apps';
import { synthesisRecord } from './synthesize-once.global';

const root = mkdtempSync(join(tmpdir(), 'jcc-shared-apps-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the CDK app synthesized once per run', () => {
  it('records a synth that fails instead of failing the whole run', () => {
    // Act: a deploy setting the app refuses, so it throws before any bundling.
    const record = synthesisRecord(
      { bundle: false, context: { turnDeadlineMs: '999' }, outdir: join(root, 'refused') },
      false,
    );

    // Assess
    expect(record).toEqual({ ok: false, error: expect.stringContaining('turnDeadlineMs') });
  });

  it('fails each test file that reads a failed synth, with the synth error', () => {
    // Prepare
    writeFileSync(
      recordFile(root, 'settings'),
      JSON.stringify({ ok: false, error: 'DeploySettingsError: turnDeadlineMs is invalid' }),
    );

    // Act
    const reading = () => sharedJccApp('settings', root);

    // Assess
    expect(reading).toThrow(
      'synthesizing the settings app failed: DeploySettingsError: turnDeadlineMs is invalid',
    );
  });
});
