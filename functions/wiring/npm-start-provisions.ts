import type { LanguageModel } from '../../shared/ports/language-model';
import type { SpeechToText, TextToSpeech } from '../../shared/ports/speech';
import type { RequestAuthenticator } from '../http/edge/node-authenticator';

/** The model `npm start` runs in its own process, as the handlers' wiring takes it. */
export interface EmbeddedModelEntry {
  readonly model: LanguageModel;
  /** The name `chat` answers with (the file's or the reference's). */
  readonly name: string;
  /** MODEL_MAX_TOKENS as the model was loaded with it: the most a `chat` request may ask. */
  readonly maxTokens: number;
}

/** Builds the embedded synthesizer for a voice (TTS_PROVIDER=embedded). */
export type EmbeddedSynthesizerFactory = (voice: string) => TextToSpeech;

/**
 * What `npm start` runs in its own process and hands to the handlers' wiring before it loads them,
 * one of each per process, so every handler shares it:
 * - `model`: the embedded language model, taken when no model server is configured;
 * - `recognizer`: the embedded recognizer, taken when STT_BASE_URL is unset (one recognition at
 *   a time and one loaded model for every handler);
 * - `synthesizer`: the embedded synthesizer, for TTS_PROVIDER=embedded;
 * - `authenticator`: the one the local server checks `X-API-Key` with from the headers, so a key
 *   is looked up, cached and refused once.
 * The wiring takes each from here instead of importing it, so no Lambda bundle holds llama.cpp,
 * sherpa-onnx, whisper.cpp or Flite (test/bundling/local-only-modules.test.ts). In Lambda nothing
 * is here: no model server is a 503 llm_not_configured, no STT_BASE_URL a 503 on the transcribe
 * route, TTS_PROVIDER=embedded is refused, and each container builds its own authenticator.
 */
export interface NpmStartProvisions {
  readonly model: EmbeddedModelEntry | null;
  readonly recognizer: SpeechToText | null;
  readonly synthesizer: EmbeddedSynthesizerFactory | null;
  readonly authenticator: RequestAuthenticator | null;
}

const provided: { -readonly [Part in keyof NpmStartProvisions]: NpmStartProvisions[Part] } = {
  model: null,
  recognizer: null,
  synthesizer: null,
  authenticator: null,
};

/** Hands a part to the wiring (null takes it back: a stopped stack leaves nothing behind). */
export function provideToHandlers<Part extends keyof NpmStartProvisions>(
  part: Part,
  value: NpmStartProvisions[Part],
): void {
  provided[part] = value;
}

/** The part npm start provided; null in Lambda. */
export function providedByNpmStart<Part extends keyof NpmStartProvisions>(
  part: Part,
): NpmStartProvisions[Part] {
  return provided[part];
}

export class EmbeddedSynthesizerMissingError extends Error {
  override readonly name = 'EmbeddedSynthesizerMissingError';
  constructor() {
    super(
      'TTS_PROVIDER=embedded runs only under npm start (the synthesizer is not in the Lambda bundles); deploy with TTS_PROVIDER=polly or openai',
    );
  }
}
