import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { esbuildBuildOptions, functionBundling } from '../../infra/stacks/function-bundling';
import { repositoryRoot, voiceFunctions } from '../../infra/stacks/voice-routes';
import { useCacheDirectories } from './cache-directory';

/**
 * Code only the isolation worker runs (docs/decisions/2026-11-24-isolation.md): `step` (the reply's
 * scan, normalization and validation), the tool-call extraction, the server tools' runners and
 * their date parser. The main thread hands that work to the worker, so a main bundle carrying it
 * only pays for it in size and cold start: run-turn.ts takes `step` from its caller and the
 * server tools' definitions live apart from their runners (server-tools.ts) to keep it out.
 */
const WORKER_ONLY = [
  'shared/conversation/turn/step.ts',
  'shared/conversation/turn/in-thread-work.ts',
  'shared/conversation/server-tools/run-server-tool.ts',
  'shared/conversation/server-tools/relative-date/resolve-relative-date.ts',
  // The reply's scan; the chat function strips think blocks itself, so not the whole folder.
  'shared/conversation/tool-calls/extract-reply.ts',
  'node_modules/chrono-node/',
];

const newDirectory = useCacheDirectories('jcc-worker-only-');

/** The files esbuild read to build `entry` as deployed (whether or not tree-shaking kept them). */
async function bundledInputs(entry: string, outputFile: string): Promise<string[]> {
  const { metafile } = await build({
    ...esbuildBuildOptions(join(repositoryRoot, entry), join(newDirectory(), outputFile)),
    metafile: true,
    sourcemap: false,
  });
  return Object.keys(metafile.inputs);
}

const matching = (inputs: readonly string[], part: string) =>
  inputs.filter((input) => input.includes(part));

describe('the isolation worker bundle', () => {
  let inputs: string[] = [];
  beforeAll(async () => {
    inputs = await bundledInputs(functionBundling.workerEntry, functionBundling.workerOutputFile);
  });

  // Without this, a renamed file would let the main bundles' check pass without checking anything.
  it.each(WORKER_ONLY)('holds %s', (part) => {
    expect(matching(inputs, part)).not.toEqual([]);
  });
});

describe.each(voiceFunctions)('the $name main bundle', (fn) => {
  it('holds none of the code only the isolation worker runs', async () => {
    const inputs = await bundledInputs(fn.entry, functionBundling.outputFile);

    const workerOnly = WORKER_ONLY.flatMap((part) => matching(inputs, part));

    expect(workerOnly).toEqual([]);
  });
});
