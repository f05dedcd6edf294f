import { Template } from '@huggingface/jinja';
import type { ModelRequest } from '../../ports/language-model';
import { buildChatRequest } from '../openai/chat-request';

/** What the model starts its reply with when a call is required (Qwen's and Hermes' call block). */
export const REQUIRED_CALL_OPENING = '<tool_call>\n';

/** A tool only the start-up check shows the template: a template that can call tools names it. */
const PROBE_TOOL_NAME = 'jcc_probe_tool_7c1f';

/** The model's chat template cannot be read, or cannot show the model its tools; says what to do. */
export class ChatTemplateError extends Error {
  override readonly name = 'ChatTemplateError';
}

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

  /**
   * Reads the template and renders a request with one tool through it, so a model that cannot be
   * asked for tool calls (no template, one that does not parse, one that leaves the tools out) is
   * refused at start-up in one line rather than answering every command with text.
   */
  constructor(chatTemplate: string, settings: PromptSettings) {
    const remedy =
      'choose a model whose template takes tools (LLM_MODEL; the default Qwen3 does) or set OPENAI_BASE_URL to use a model server';
    if (chatTemplate.trim() === '') {
      throw new ChatTemplateError(
        `it has no chat template, so it cannot be asked for tool calls: ${remedy}`,
      );
    }
    try {
      this.#template = new Template(chatTemplate);
    } catch (error) {
      throw new ChatTemplateError(
        `its chat template cannot be read (${error instanceof Error ? error.message : String(error)}): ${remedy}`,
      );
    }
    this.#settings = settings;
    let probe: string;
    try {
      probe = this.render({
        messages: [{ role: 'user', content: 'hello' }],
        tools: [
          {
            type: 'function',
            function: {
              name: PROBE_TOOL_NAME,
              description: 'A tool of the start-up check.',
              parameters: { type: 'object', properties: {} },
            },
          },
        ],
        toolChoice: 'auto',
      }).text;
    } catch (error) {
      throw new ChatTemplateError(
        `its chat template fails on a request with tools (${error instanceof Error ? error.message : String(error)}): ${remedy}`,
      );
    }
    if (!probe.includes(PROBE_TOOL_NAME)) {
      throw new ChatTemplateError(
        `its chat template does not show the model its tools, so it cannot call them: ${remedy}`,
      );
    }
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
