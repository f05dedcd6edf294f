/**
 * Where a server's key comes from: the environment (local runs) or a Secrets Manager secret
 * (deployed: resolve-api-key.ts reads it once per container). The model and both speech servers
 * take their keys this way.
 */
export type ApiKeySource =
  | { readonly kind: 'value'; readonly value: string }
  | { readonly kind: 'secret'; readonly secretId: string };

/**
 * A key from the environment, else its secret's name, else none: local servers (llama.cpp,
 * Ollama, vLLM, a whisper server) often need no key, and the SDK still wants a string.
 */
export function apiKeySource(value: string | null, secretId: string | null): ApiKeySource {
  if (value !== null) return { kind: 'value', value };
  if (secretId !== null) return { kind: 'secret', secretId };
  return { kind: 'value', value: 'not-needed' };
}
