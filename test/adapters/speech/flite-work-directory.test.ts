import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const adapters = (file: string) =>
  fileURLToPath(new URL(`../../../shared/adapters/speech/${file}`, import.meta.url));

/** A process that speaks once, prints Flite's work directory and exits, as `npm start` does. */
const SCRIPT = `
const { EmbeddedFliteTextToSpeech } = await import(${JSON.stringify(adapters('embedded-flite-text-to-speech.ts'))});
const { fliteWorkDirectory } = await import(${JSON.stringify(adapters('flite-workers.ts'))});
const speech = await new EmbeddedFliteTextToSpeech({ voice: 'slt' }).synthesize('Hello.', { timeoutMs: 60000 });
for await (const chunk of speech.chunks) void chunk;
console.log(fliteWorkDirectory());
process.exit(0);
`;

describe("the embedded synthesizer's work directory", () => {
  it('is removed when the process exits', async () => {
    // Act
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', SCRIPT],
      { timeout: 60_000 },
    );

    // Assess
    const directory = stdout.trim().split('\n').at(-1) ?? '';
    expect(directory).toContain('jcc-flite-');
    expect(existsSync(directory)).toBe(false);
  });
});
