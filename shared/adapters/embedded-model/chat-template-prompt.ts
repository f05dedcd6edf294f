import { Template } from '@huggingface/jinja';
import type { ModelRequest } from '../../ports/language-model';
import { buildChatRequest } from '../openai/chat-request';

/** What the model starts its reply with when a call is required (Qwen's and Hermes' call block). */
export const REQUIRED_CALL_OPENING = '<tool_call>\n';

export interface PromptSettings {
  /** MODEL_THINKING: `off` renders the template with `enable_thinking: false` (Qwen3). */
  readonly thinking: 'off' | 'on';
}

/**
 * The model's own chat template (the GGUF's `tokenizer.chat_template`), run as llama.cpp's server
 * runs it with `--jinja`: the request in its Chat Completions wire shape (the same messages and
 * tools the OpenAI adapter sends), `chat_template_kwargs` passed in, the generation prompt added.
 * A required call opens the model's turn with the call block, so what follows can only be a call.
 */
export class ChatTemplatePrompt {
  readonly #template: Template;
  readonly #settings: PromptSettings;

  constructor(chatTemplate: string, settings: PromptSettings) {
    this.#template = new Template(chatTemplate);
    this.#settings = settings;
  }

  /** The prompt text, ending where the model writes (after the opening of a required call). */
  render(request: ModelRequest): { readonly text: string; readonly opening: string } {
    const body = buildChatRequest(request, { model: 'embedded' });
    const opening = request.toolChoice === 'required' && request.tools.length > 0;
    const text = this.#template.render({
      // As llama.cpp does: a null content (an assistant turn of calls only) is an empty text,
      // which Qwen3's template tests with `in`.
      messages: body.messages.map((message) => ({ ...message, content: message.content ?? '' })),
      ...(body.tools === undefined ? {} : { tools: body.tools as unknown as unknown[] }),
      add_generation_prompt: true,
      ...(this.#settings.thinking === 'off' ? { enable_thinking: false } : {}),
    });
    const openingText = opening ? REQUIRED_CALL_OPENING : '';
    return { text: `${text}${openingText}`, opening: openingText };
  }
}
