import { describe, expect, it } from 'vitest';
import { ChatTemplatePrompt } from '../../../shared/adapters/embedded-model/chat-template-prompt';
import { SegmentTokenizer } from '../../../shared/adapters/embedded-model/segment-tokenizer';
import { useTinyModel } from '../../support/random-gguf/tiny-model-file';

const tinyModel = useTinyModel();

describe("SegmentTokenizer: Qwen3's real tokenizer through the binding", () => {
  it("gives the whole text's tokens, request after request sharing a system prompt", () => {
    // Prepare: an exchange with calls, results and text that tokenizes across the line breaks.
    const prompt = new ChatTemplatePrompt(
      String(tinyModel().fileInfo.metadata.tokenizer?.chat_template),
      { thinking: 'off' },
    );
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'set_timer',
          description: 'Starts a timer.',
          parameters: { type: 'object', properties: { minutes: { type: 'integer' } } },
        },
      },
    ];
    const system = { role: 'system' as const, content: 'You are a voice assistant.\n\nBe brief.' };
    const texts = [
      prompt.render({
        messages: [system, { role: 'user', content: 'set a timer for ten minutes' }],
        tools,
        toolChoice: 'auto',
      }).text,
      prompt.render({
        messages: [
          system,
          { role: 'user', content: 'set a timer for ten minutes' },
          {
            role: 'assistant',
            content: null,
            toolCalls: [{ id: 'c1', name: 'set_timer', arguments: '{"minutes": 10}' }],
          },
          { role: 'tool', toolCallId: 'c1', content: '{"ok": true}' },
        ],
        tools,
        toolChoice: 'required',
      }).text,
    ];
    const tokenizer = new SegmentTokenizer(tinyModel());

    // Act
    const cut = texts.map((text) => tokenizer.tokenize(text));

    // Assess
    expect(cut).toEqual(texts.map((text) => tinyModel().tokenize(text, true)));
    expect(cut[1]?.length).toBeGreaterThan(cut[0]?.length ?? 0);
  });
});
