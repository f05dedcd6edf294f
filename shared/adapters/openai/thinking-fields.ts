import type { ReasoningEffort } from 'openai/resources/shared';

/**
 * Which kind of OpenAI-compatible server the model runs on: each documents its own way of turning
 * a reasoning model's thinking off (docs/model-thinking.md). `auto` guesses from the base URL.
 */
export const MODEL_SERVERS = [
  'auto',
  'openai',
  'llama.cpp',
  'vllm',
  'sglang',
  'ollama',
  'bedrock',
] as const;
export type ModelServer = (typeof MODEL_SERVERS)[number];

/** `off`: ask the model not to think (a voice turn waits for every token); `on`: the server's default. */
export const MODEL_THINKING_MODES = ['off', 'on'] as const;
export type ModelThinking = (typeof MODEL_THINKING_MODES)[number];

/** The fields a request carries to turn thinking off; empty when nothing is to be sent. */
export interface ThinkingFields {
  readonly reasoning_effort?: ReasoningEffort;
  readonly chat_template_kwargs?: { readonly enable_thinking: boolean };
}

/**
 * The wire forms: OpenAI's and Ollama's `reasoning_effort`, the chat template's switch, and
 * Bedrock's (OpenAI's Chat Completions body: `reasoning_effort` where the model takes one).
 */
type ServerFamily = 'openai' | 'ollama' | 'chat-template' | 'bedrock';

/** Ollama's default port: `auto` takes a server there for Ollama. */
const OLLAMA_PORT = '11434';

/**
 * The family a server belongs to. `auto`: a signed Bedrock client or a Bedrock host is Bedrock,
 * api.openai.com is OpenAI, port 11434 is Ollama, and anything else gets the chat-template form
 * that llama.cpp, vLLM and SGLang read (Ollama ignores it; a server that refuses it is asked
 * again without it, once).
 */
export function serverFamily(
  server: ModelServer,
  baseURL: string,
  signedForBedrock = false,
): ServerFamily {
  switch (server) {
    case 'openai':
    case 'ollama':
    case 'bedrock':
      return server;
    case 'llama.cpp':
    case 'vllm':
    case 'sglang':
      return 'chat-template';
    case 'auto': {
      const url = parseUrl(baseURL);
      if (signedForBedrock || /^bedrock-(mantle|runtime)\./.test(url?.hostname ?? '')) {
        return 'bedrock';
      }
      if (url?.hostname === 'api.openai.com') return 'openai';
      if (url?.port === OLLAMA_PORT) return 'ollama';
      return 'chat-template';
    }
  }
}

/** The fields that ask `model` on a server of `family` not to think; `{}` where none exists. */
export function thinkingOffFields(family: ServerFamily, model: string): ThinkingFields {
  switch (family) {
    case 'chat-template':
      return { chat_template_kwargs: { enable_thinking: false } };
    case 'ollama':
      return { reasoning_effort: 'none' };
    case 'openai': {
      const effort = lowestOpenAiEffort(model);
      return effort === null ? {} : { reasoning_effort: effort };
    }
    case 'bedrock': {
      const effort = lowestBedrockEffort(model);
      return effort === null ? {} : { reasoning_effort: effort };
    }
  }
}

/**
 * The lowest `reasoning_effort` a model of Bedrock's OpenAI-compatible endpoint takes: `low` for
 * gpt-oss (its card: low, medium, high; no way to turn thinking off), and OpenAI's own rules for
 * the gpt-5 family Bedrock serves (`openai.gpt-5.4`). Null for the others (Qwen, Gemma,
 * Mistral...), whose Bedrock pages document no reasoning switch in this API: nothing is sent.
 */
export function lowestBedrockEffort(model: string): ReasoningEffort | null {
  const name = model.toLowerCase();
  if (/^openai\.gpt-oss-/.test(name)) return 'low';
  if (name.startsWith('openai.')) return lowestOpenAiEffort(name.slice('openai.'.length));
  return null;
}

/**
 * The lowest `reasoning_effort` an OpenAI model accepts: `none` from gpt-5.1 on (its default),
 * `minimal` for gpt-5 and its mini and nano, `low` for the o-series and the codex models. Null for
 * a model that takes none (gpt-4.1, gpt-4o: not reasoning models, a 400 if sent; gpt-5-pro: high
 * only).
 */
export function lowestOpenAiEffort(model: string): ReasoningEffort | null {
  // `openai/gpt-5` on routers that prefix the provider.
  const name = model.toLowerCase().replace(/^openai\//, '');
  if (name.includes('codex')) return 'low';
  if (/^gpt-5(\.\d+)?-pro/.test(name)) return null;
  if (/^gpt-5\.\d/.test(name)) return 'none';
  if (/^gpt-5(-|$)/.test(name)) return 'minimal';
  if (/^o\d/.test(name)) return 'low';
  return null;
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
