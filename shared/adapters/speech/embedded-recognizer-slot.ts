import type { SpeechToText } from '../../ports/speech';

let provided: SpeechToText | null = null;

/**
 * Where `npm start` puts its embedded recognizer (whisper.cpp) before it loads the handlers: one
 * per process, so every handler shares its one recognition at a time and its loaded model. The
 * speech wiring takes it from here when STT_BASE_URL is unset, instead of importing it, so no
 * Lambda bundle holds it; in Lambda nothing is here and the transcribe route answers 503.
 */
export function provideEmbeddedRecognizer(recognizer: SpeechToText | null): void {
  provided = recognizer;
}

export function embeddedRecognizer(): SpeechToText | null {
  return provided;
}
