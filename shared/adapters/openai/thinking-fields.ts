import type { ReasoningEffort } from 'openai/resources/shared';

/**
 * Which kind of OpenAI-compatible server the model runs on: each documents its own way of turning
 * a reasoning model's thinking off (docs/model-thinking.md). `auto` guesses from the base URL.
 */
export const MODEL_SERVERS = ['auto', 'openai', 'llama.cpp', 'vllm', 'sglang', 'ollama'] as const;
export type ModelServer = (typeof MODEL_SERVERS)[number];

/** `off`: ask the model not to think (a voice turn waits for every token); `on`: the server's default. */
export const MODEL_THINKING_MODES = ['off', 'on'] as const;
export type ModelThinking = (typeof MODEL_THINKING_MODES)[number];

/** The fields a request carries to turn thinking off; empty when nothing is to be sent. */
export interface ThinkingFields {
  readonly reasoning_effort?: ReasoningEffort;
  readonly chat_template_kwargs?: { readonly enable_thinking: boolean };
}

/** The three wire forms: OpenAI's and Ollama's `reasoning_effort`, the chat template's switch. */
type ServerFamily = 'openai' | 'ollama' | 'chat-template';

/** Ollama's default port: `auto` takes a server there for Ollama. */
const OLLAMA_PORT = '11434';

/**
 * The family a server belongs to. `auto`: api.openai.com is OpenAI, port 11434 is Ollama, and
 * anything else gets the chat-template form that llama.cpp, vLLM and SGLang read (Ollama ignores
 * it; a server that refuses it is asked again without it, once).
 */
export function serverFamily(server: ModelServer, baseURL: string): ServerFamily {
  switch (server) {
    case 'openai':
    case 'ollama':
      return server;
    case 'llama.cpp':
    case 'vllm':
    case 'sglang':
      return 'chat-template';
    case 'auto': {
      const url = parseUrl(baseURL);
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
  }
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
