import {
  MOONSHINE_SHAPES,
  type MoonshineScript,
  writeMoonshineModel,
} from '../../infra/tools/write-moonshine-model';
import type { MoonshineModelFiles } from '../../shared/adapters/speech/recognizer-engines';
import { testModelFolder } from './test-model-folders';

/** What the test model says, whatever it hears. */
export const TEST_MOONSHINE_WORDS = ['turn', 'on', 'the', 'kitchen', 'lights'] as const;

/**
 * A Moonshine model of random weights in the smallest shape (a few hundred kB), in a new
 * temporary folder: the real sherpa-onnx addon loads it and says `script` (by default
 * TEST_MOONSHINE_WORDS), nothing downloaded. The test file removes it with
 * `removeTestModelFoldersAfterAll`.
 */
export async function writeTestMoonshineModel(
  script: MoonshineScript = { words: TEST_MOONSHINE_WORDS },
): Promise<MoonshineModelFiles> {
  const folder = await testModelFolder('jcc-moonshine-');
  return (await writeMoonshineModel(folder, MOONSHINE_SHAPES.test, script)).files;
}
