import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WHISPER_SHAPES, writeRandomWhisperModel } from '../../infra/tools/write-whisper-model';

/**
 * A whisper.cpp model of random weights in the smallest shape whisper.cpp runs (6.8 MB), in a
 * new temporary folder: the real addon loads it and transcribes gibberish, nothing downloaded.
 */
export async function writeTestWhisperModel(): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'jcc-whisper-')), 'ggml-random-test.bin');
  await writeRandomWhisperModel(path, WHISPER_SHAPES.test);
  return path;
}
