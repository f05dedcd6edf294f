import { join } from 'node:path';
import { WHISPER_SHAPES, writeRandomWhisperModel } from '../../infra/tools/write-whisper-model';
import { testModelFolder } from './test-model-folders';

/**
 * A whisper.cpp model of random weights in the smallest shape whisper.cpp runs (6.8 MB), in a
 * new temporary folder: the real addon loads it and transcribes gibberish, nothing downloaded.
 * The test file removes it with `removeTestModelFoldersAfterAll`.
 */
export async function writeTestWhisperModel(): Promise<string> {
  const path = join(await testModelFolder('jcc-whisper-'), 'ggml-random-test.bin');
  await writeRandomWhisperModel(path, WHISPER_SHAPES.test);
  return path;
}
