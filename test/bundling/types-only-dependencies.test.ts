import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildBuildOptions } from '../../infra/stacks/function-bundling';
import { repositoryRoot, voiceFunctions } from '../../infra/stacks/voice-routes';
import { useCacheDirectories } from './cache-directory';

/**
 * json-schema-to-ts derives the body and response types from their schemas at compile time only.
 * A value import (`import { type X }` keeps an empty import under verbatimModuleSyntax) would
 * pull its runtime into every bundle; `import type` leaves nothing.
 */
const TYPES_ONLY = ['json-schema-to-ts', 'ts-algebra'];

const newDirectory = useCacheDirectories('jcc-types-only-');

describe.each(voiceFunctions)('the $name bundle', (fn) => {
  it('holds no file of a types-only dependency', async () => {
    const outfile = join(newDirectory(), 'index.mjs');

    const { metafile } = await build({
      ...esbuildBuildOptions(join(repositoryRoot, fn.entry), outfile),
      metafile: true,
      sourcemap: false,
    });

    const bundled = Object.keys(metafile.inputs).filter((input) =>
      TYPES_ONLY.some((name) => input.includes(`node_modules/${name}/`)),
    );
    expect(bundled).toEqual([]);
  });
});
