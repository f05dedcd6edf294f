import OpenAI from 'openai';

export interface OpenAiAudioOptions {
  /** Any OpenAI-compatible server, e.g. `https://api.openai.com/v1` or `http://localhost:8000/v1`. */
  readonly baseURL: string;
  /** Sent as a bearer token; never written into an error. Empty for servers that want none. */
  readonly apiKey: string;
  readonly model: string;
}

/** Removes every occurrence of the key from a text that came from the SDK or the server. */
export const redactKey =
  (secret: string) =>
  (text: string): string =>
    secret === '' ? text : text.split(secret).join('[redacted]');

/**
 * An SDK client for the audio endpoints, built as the model's is: no retries of its own (a
 * spoken answer that comes late is no answer), no OPENAI_* variables read behind our back.
 */
export function openAiAudioClient(options: OpenAiAudioOptions): OpenAI {
  return new OpenAI({
    baseURL: options.baseURL,
    // The SDK refuses an empty key; servers without authentication ignore whatever is sent.
    apiKey: options.apiKey === '' ? 'unused' : options.apiKey,
    maxRetries: 0,
    logLevel: 'off',
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
  });
}
