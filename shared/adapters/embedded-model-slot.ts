import type { LanguageModel } from '../ports/language-model';

/** The model `npm start` runs in its own process, as the handlers' wiring takes it. */
export interface EmbeddedModelEntry {
  readonly model: LanguageModel;
  /** The name `chat` answers with (the file's or the reference's). */
  readonly name: string;
  /** MODEL_MAX_TOKENS as the model was loaded with it: the most a `chat` request may ask. */
  readonly maxTokens: number;
}

let provided: EmbeddedModelEntry | null = null;

/**
 * Where `npm start` puts the embedded language model before it loads the handlers. The wiring
 * takes it from here when no model server is configured, instead of importing it, so no Lambda
 * bundle holds llama.cpp (test/bundling/local-only-modules.test.ts); in Lambda nothing is here
 * and, with no OPENAI_BASE_URL, the voice routes answer 503 llm_not_configured as before.
 */
export function provideEmbeddedModel(entry: EmbeddedModelEntry | null): void {
  provided = entry;
}

export function embeddedModel(): EmbeddedModelEntry | null {
  return provided;
}
