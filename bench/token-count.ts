import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** The parts of a Chat Completions body that make up the prompt, in the wire shape. */
export interface ChatPrompt {
  readonly messages: readonly { readonly role: string; readonly content?: unknown }[];
  readonly tools?: readonly unknown[];
}

export interface ChatPromptSize {
  /** Every message's text plus the tools as JSON: what issue 11's 9,500-character goal counts. */
  readonly characters: number;
  readonly o200kTokens: number;
  readonly messageTokens: readonly number[];
  readonly toolTokens: number;
}

/** OpenAI's chat format: `<|im_start|>role<|im_sep|>content<|im_end|>` is 3 tokens besides role and content. */
const TOKENS_PER_MESSAGE = 3;
/** The reply is primed with `<|im_start|>assistant<|im_sep|>`. */
const REPLY_PRIMING_TOKENS = 3;

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : content == null ? '' : JSON.stringify(content);

const o200k = (text: string): number =>
  // A message that spells a special token is text to count, not a reason to throw.
  encode(text, { disallowedSpecial: new Set() }).length;

/**
 * The size of a chat request's prompt in characters and in o200k tokens (GPT-4o, GPT-4.1,
 * GPT-5), counted the way OpenAI's cookbook counts messages (3 tokens a message, 3 to prime the
 * reply). The tools are counted as their JSON: OpenAI renders them in its own, somewhat shorter,
 * format, so this is an upper estimate for them; a local model's template (Qwen3's) puts that very
 * JSON in the prompt.
 */
export function chatPromptSize(prompt: ChatPrompt): ChatPromptSize {
  const texts = prompt.messages.map((message) => textOf(message.content));
  const messageTokens = prompt.messages.map(
    (message, index) => TOKENS_PER_MESSAGE + o200k(message.role) + o200k(texts[index] ?? ''),
  );
  const toolsJson =
    prompt.tools === undefined || prompt.tools.length === 0 ? '' : JSON.stringify(prompt.tools);
  const toolTokens = toolsJson === '' ? 0 : o200k(toolsJson);
  const characters = texts.reduce((sum, text) => sum + text.length, 0) + toolsJson.length;
  const o200kTokens =
    messageTokens.reduce((sum, tokens) => sum + tokens, 0) + toolTokens + REPLY_PRIMING_TOKENS;
  return { characters, o200kTokens, messageTokens, toolTokens };
}
