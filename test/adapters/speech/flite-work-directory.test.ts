import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const synthesizer = fileURLToPath(
  new URL('../../../shared/adapters/speech/embedded-flite-text-to-speech.ts', import.meta.url),
);

/** A process that speaks once, says what its temporary directory holds and exits, as npm start. */
const SCRIPT = `
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
const { EmbeddedFliteTextToSpeech } = await import(${JSON.stringify(synthesizer)});
const speech = await new EmbeddedFliteTextToSpeech({ voice: 'slt' }).synthesize('Hello.', { timeoutMs: 60000 });
for await (const chunk of speech.chunks) void chunk;
console.log(readdirSync(tmpdir()).join(','));
process.exit(0);
`;

let temporary: string | null = null;
afterEach(() => {
  if (temporary !== null) rmSync(temporary, { recursive: true, force: true });
});

describe("the embedded synthesizer's work directory", () => {
  it('is removed when the process exits', async () => {
    // Prepare: the process's own temporary directory, so no other process's files count.
    temporary = mkdtempSync(join(tmpdir(), 'jcc-flite-test-'));

    // Act
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', SCRIPT],
      { timeout: 60_000, env: { ...process.env, TMPDIR: temporary } },
    );

    // Assess
    const whileRunning = stdout.trim().split('\n').at(-1) ?? '';
    expect(whileRunning).toContain('jcc-flite-');
    expect(readdirSync(temporary).filter((name) => name.startsWith('jcc-flite-'))).toEqual([]);
  });
});
