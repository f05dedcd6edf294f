import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const synthesizer = fileURLToPath(
  new URL('../../../shared/adapters/speech/embedded-flite-text-to-speech.ts', import.meta.url),
);

/**
 * A process that speaks as npm start does: two syntheses at once, one left mid-piece (its thread
 * terminated), then another on a new thread; every piece a new Flite instance that dies after it.
 */
const SCRIPT = `
const { EmbeddedFliteTextToSpeech } = await import(${JSON.stringify(synthesizer)});
const tts = new EmbeddedFliteTextToSpeech({ voice: 'slt' });
const speak = async (text, leave) => {
  const speech = await tts.synthesize(text, { timeoutMs: 60000 });
  for await (const chunk of speech.chunks) if (leave) break;
};
const sentences = 'The kitchen lights are on. The front door is locked. The oven is preheating.';
await Promise.all([speak(sentences, false), speak(sentences.repeat(4), true)]);
await speak(sentences, false);
console.log('spoken');
process.exit(0);
`;

describe("the embedded synthesizer's WebAssembly code", () => {
  it('is never freed by V8 code GC, whose wrapper double free aborts Node 24', async () => {
    // Act: code GC at every piece of dead code, each one traced.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--stress-wasm-code-gc',
        '--trace-wasm-code-gc',
        '--import',
        'tsx',
        '--input-type=module',
        '--eval',
        SCRIPT,
      ],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
    );

    // Assess
    const lines = stdout.trim().split('\n');
    expect(lines).toContain('spoken');
    expect(lines.filter((line) => line.startsWith('[wasm-gc]'))).toEqual([]);
  }, 150_000);
});
