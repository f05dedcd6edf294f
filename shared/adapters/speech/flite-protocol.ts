import type { PcmFormat } from '../../ports/speech';

/** What a Flite worker thread starts with: the compiled module and where Flite may write. */
export interface FliteWorkerSetup {
  /** Flite's compiled WebAssembly module (a `WebAssembly.Module`, cloned into the thread). */
  readonly module: unknown;
  /** The directory preopened as Flite's `.`: its WAV files are written and read back there. */
  readonly directory: string;
}

/** One piece of text to speak, and the file (in the directory) Flite writes it to. */
export interface FlitePiece {
  readonly voice: string;
  readonly text: string;
  readonly file: string;
}

/** A piece spoken (its PCM, moved to the main thread), or why not. */
export type FlitePieceReply =
  | { readonly ok: true; readonly format: PcmFormat; readonly pcm: Uint8Array }
  | { readonly ok: false; readonly message: string };
