import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MOONSHINE_SHAPES,
  type MoonshineScript,
  writeMoonshineModel,
} from '../../infra/tools/write-moonshine-model';
import type { MoonshineModelFiles } from '../../shared/adapters/speech/recognizer-engines';

/** What the test model says, whatever it hears. */
export const TEST_MOONSHINE_WORDS = ['turn', 'on', 'the', 'kitchen', 'lights'] as const;

/**
 * A Moonshine model of random weights in the smallest shape (a few hundred kB), in a new
 * temporary folder: the real sherpa-onnx addon loads it and says `script` (by default
 * TEST_MOONSHINE_WORDS), nothing downloaded.
 */
export async function writeTestMoonshineModel(
  script: MoonshineScript = { words: TEST_MOONSHINE_WORDS },
): Promise<MoonshineModelFiles> {
  const folder = await mkdtemp(join(tmpdir(), 'jcc-moonshine-'));
  return (await writeMoonshineModel(folder, MOONSHINE_SHAPES.test, script)).files;
}
