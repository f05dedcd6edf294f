import type { OpenAiServer } from '../openai/openai-sdk-client';

/** An OpenAI-compatible audio endpoint: the server (openai-sdk-client.ts) and the model there. */
export interface OpenAiAudioOptions extends OpenAiServer {
  readonly model: string;
}
