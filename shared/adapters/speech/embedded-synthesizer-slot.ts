import type { TextToSpeech } from '../../ports/speech';

/** Builds the embedded synthesizer for a voice (TTS_PROVIDER=embedded). */
export type EmbeddedSynthesizerFactory = (voice: string) => TextToSpeech;

let provided: EmbeddedSynthesizerFactory | null = null;

/**
 * Where `npm start` puts the embedded synthesizer before it loads the handlers. The handlers'
 * wiring takes it from here instead of importing it, so no Lambda bundle holds it; in Lambda
 * nothing is here and TTS_PROVIDER=embedded is refused (EmbeddedSynthesizerMissingError).
 */
export function provideEmbeddedSynthesizer(factory: EmbeddedSynthesizerFactory | null): void {
  provided = factory;
}

export function embeddedSynthesizer(): EmbeddedSynthesizerFactory | null {
  return provided;
}

export class EmbeddedSynthesizerMissingError extends Error {
  override readonly name = 'EmbeddedSynthesizerMissingError';
  constructor() {
    super(
      'TTS_PROVIDER=embedded runs only under npm start (the synthesizer is not in the Lambda bundles); deploy with TTS_PROVIDER=polly or openai',
    );
  }
}
