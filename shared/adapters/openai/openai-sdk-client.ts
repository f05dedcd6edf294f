import OpenAI from 'openai';
import { type BedrockSigning, bedrockSigningFetch } from './bedrock-signing-fetch';
import { providerFetch } from './provider-fetch';

/** Where an OpenAI-compatible server is, and the key it is sent. */
export interface OpenAiServer {
  /** Any OpenAI-compatible server, e.g. `https://api.openai.com/v1` or `http://localhost:8000/v1`. */
  readonly baseURL: string;
  /** Sent as a bearer token; never written into an error. Empty for servers that want none. */
  readonly apiKey: string;
  /**
   * Amazon Bedrock's OpenAI-compatible endpoint: every request is signed with SigV4 for this
   * region (no key is sent; `apiKey` is ignored).
   */
  readonly bedrock?: BedrockSigning;
}

/** An OpenAI-compatible audio endpoint (speech in or out): the server and the model there. */
export interface OpenAiAudioOptions extends OpenAiServer {
  readonly model: string;
}

/** Removes every occurrence of the key from a text that came from the SDK or the server. */
export const redactKey =
  (secret: string) =>
  (text: string): string =>
    secret === '' ? text : text.split(secret).join('[redacted]');

/**
 * The SDK client of the model and of the audio endpoints alike: no retries of its own (each
 * caller retries, or not, within its own deadline), no OPENAI_* variables read behind our back.
 * Every reply is counted as it arrives, by the transport itself (provider-fetch.ts): an error
 * reply past 16 KiB, a success past `bodyLimitBytes` (the chat model's, the transcription's)
 * fails before the SDK has read it whole; with `null` (speech out, whose PCM its reader bounds) a
 * success is not counted there.
 */
export function openAiSdkClient(server: OpenAiServer, bodyLimitBytes: number | null): OpenAI {
  const transport = providerFetch(bodyLimitBytes);
  const signed =
    server.bedrock === undefined
      ? transport
      : bedrockSigningFetch(server.baseURL, server.bedrock, transport);
  return new OpenAI({
    fetch: signed,
    baseURL: server.baseURL,
    // The SDK refuses an empty key; servers without authentication ignore whatever is sent, and
    // the Bedrock signer drops it.
    apiKey: server.apiKey === '' || server.bedrock !== undefined ? 'unused' : server.apiKey,
    maxRetries: 0,
    logLevel: 'off',
    // Explicit nulls keep the SDK from reading OPENAI_* variables: configuration is read in one place.
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
  });
}
