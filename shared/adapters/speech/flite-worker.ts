// LOCAL ONLY (`npm start`): the worker thread of FliteWorkers. Speaks one piece of text a
// message with CMU Flite under node:wasi (a WASI program runs once: one instance a piece), so the
// main thread never runs Flite and a piece past its deadline is stopped by terminating the thread.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { FlitePiece, FlitePieceReply, FliteWorkerSetup } from './flite-protocol';
import { readWavData } from './wav-format';

const port = parentPort;
if (port === null) throw new Error('flite-worker.ts runs as a worker thread only');
const { module, directory } = workerData as FliteWorkerSetup;

/** The slice of the WebAssembly API used here (the project's types carry no DOM lib). */
const webAssembly = (
  globalThis as unknown as {
    WebAssembly: { instantiate(module: unknown, imports: object): Promise<object> };
  }
).WebAssembly;

/**
 * `node:wasi`, loaded without its one-time "WASI is an experimental feature" warning: `npm start`
 * chose it knowingly, and a newcomer should not read it as a fault.
 */
async function loadWasi(): Promise<typeof import('node:wasi').WASI> {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('WASI is an experimental feature')) return;
    (emitWarning as (...parameters: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return (await import('node:wasi')).WASI;
  } finally {
    process.emitWarning = emitWarning;
  }
}
const WASI = await loadWasi();

async function speak(piece: FlitePiece): Promise<FlitePieceReply> {
  const wasi = new WASI({
    version: 'preview1',
    // Text as one argument after -t: nothing in it is read as an option.
    args: ['flite', '-voice', piece.voice, '-t', piece.text, piece.file],
    env: {},
    preopens: { '.': directory },
    returnOnExit: true,
  });
  const path = join(directory, piece.file);
  try {
    const instance = await webAssembly.instantiate(module, wasi.getImportObject());
    const exitCode = wasi.start(instance);
    if (exitCode !== 0) return { ok: false, message: `flite exited with code ${exitCode}` };
    const wav = new Uint8Array(await readFile(path));
    const read = readWavData(wav);
    if (!read.ok) return { ok: false, message: `flite wrote no usable WAV: ${read.issue}` };
    return { ok: true, format: read.value.format, pcm: read.value.data.slice() };
  } catch (error) {
    return { ok: false, message: String(error) };
  } finally {
    await rm(path, { force: true });
  }
}

// Each piece is a new instance with 16 MiB of linear memory; the thread's heap barely grows, so
// V8 collects them late: two threads speaking 3,000 digits peaked at +350 MB without this, +200 MB
// with a collection after each piece (about 1 ms).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as (() => void) | undefined;

port.on('message', async (piece: FlitePiece) => {
  const reply = await speak(piece);
  collectGarbage?.();
  port.postMessage(reply, reply.ok ? [reply.pcm.buffer as ArrayBuffer] : []);
});
