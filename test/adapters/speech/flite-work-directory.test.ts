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

/** A process that speaks once and is killed (SIGKILL: no exit handler runs), as npm start may be. */
const KILLED_SCRIPT = `
const { EmbeddedFliteTextToSpeech } = await import(${JSON.stringify(synthesizer)});
const speech = await new EmbeddedFliteTextToSpeech({ voice: 'slt' }).synthesize('Hello.', { timeoutMs: 60000 });
for await (const chunk of speech.chunks) void chunk;
process.kill(process.pid, 'SIGKILL');
`;

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

  it('left by a process that was killed is removed by the next one that speaks', async () => {
    // Prepare: a process killed after speaking leaves its directory behind.
    temporary = mkdtempSync(join(tmpdir(), 'jcc-flite-test-'));
    const run = (script: string) =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '--eval', script],
        { timeout: 60_000, env: { ...process.env, TMPDIR: temporary ?? '' } },
      );
    const killed = await run(KILLED_SCRIPT).catch((error: { signal?: string }) => error);
    const left = readdirSync(temporary).filter((name) => name.startsWith('jcc-flite-'));

    // Act
    const { stdout } = await run(SCRIPT);

    // Assess: while the second ran, only its own directory was there; none after it.
    expect(killed).toMatchObject({ signal: 'SIGKILL' });
    expect(left).toHaveLength(1);
    const whileRunning = (stdout.trim().split('\n').at(-1) ?? '').split(',');
    expect(whileRunning.filter((name) => name.startsWith('jcc-flite-'))).toHaveLength(1);
    expect(whileRunning).not.toContain(left[0]);
    expect(readdirSync(temporary).filter((name) => name.startsWith('jcc-flite-'))).toEqual([]);
  });
});
