import { describe, expect, it } from 'vitest';
import { commonPrefixLength } from '../../support/scripted-llm/prefix-cache';
import {
  qwen3ReplyText,
  qwen3Text,
  qwen3Tokens,
  renderQwen3Prompt,
} from '../../support/scripted-llm/qwen3-chat';

const tool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object' } },
};
const call = {
  id: 'c1',
  type: 'function',
  function: { name: 'get_weather', arguments: '{"city":"LA"}' },
};
const system = { role: 'system', content: 'You are Jarvis.' };
const asks = { role: 'user', content: 'weather?' };
const thinkingOff = { chat_template_kwargs: { enable_thinking: false } };

describe("Qwen3's chat template", () => {
  it('puts the tools after the system prompt, in the system message, then the turn to write', () => {
    // Act
    const prompt = renderQwen3Prompt({ messages: [system, asks], tools: [tool] });

    // Assess
    expect(prompt).toMatch(/^<\|im_start\|>system\nYou are Jarvis\.\n\n# Tools\n/);
    expect(prompt).toContain('<tools>\n{"type": "function", "function": {"name": "get_weather"');
    expect(prompt.endsWith('<|im_start|>user\nweather?<|im_end|>\n<|im_start|>assistant\n')).toBe(
      true,
    );
  });

  it('opens the turn to write with an empty think block when thinking is off', () => {
    // Act
    const prompt = renderQwen3Prompt({ messages: [system, asks], ...thinkingOff });

    // Assess
    expect(prompt.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n')).toBe(true);
  });

  it('renders a past call as the model wrote it, and its result as a tool_response', () => {
    // Act
    const prompt = renderQwen3Prompt({
      messages: [
        asks,
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    });

    // Assess
    const written = qwen3ReplyText(null, [call]);
    expect(prompt).toContain(
      `<|im_start|>assistant\n${written}\n<|im_start|>user\n<tool_response>\nsunny\n</tool_response><|im_end|>`,
    );
  });

  it('writes a scripted reply exactly as the history will carry it back', () => {
    // Act
    const written = qwen3ReplyText('On it.', [
      { name: 'set_timer', arguments: { duration_seconds: 60 } },
    ]);
    const carried = qwen3ReplyText('On it.', [
      {
        id: 'x',
        type: 'function',
        function: { name: 'set_timer', arguments: '{"duration_seconds":60}' },
      },
    ]);

    // Assess
    expect(written).toBe(carried);
    expect(written).toBe(
      'On it.\n<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds":60}}\n</tool_call><|im_end|>',
    );
  });
});

describe("Qwen3's tokenizer", () => {
  it.each([
    ['<|im_start|>', 1],
    ['<tool_call>', 1],
    ['</tool_response>', 1],
    ['<think>', 1],
    ['2026', 4],
  ])('%s is %i tokens (special tokens are one; every digit is one)', (text, count) => {
    expect(qwen3Tokens(text)).toHaveLength(count);
  });

  it('cuts a reply after its first tokens', () => {
    expect(qwen3Text(qwen3Tokens('Hello there, friend.<|im_end|>').slice(0, 2))).toBe(
      'Hello there',
    );
    expect(qwen3Text(qwen3Tokens('Done.<|im_end|>'))).toBe('Done.');
  });

  it.each([
    ['thinking off: the call is evaluated again with its result', thinkingOff, false],
    ['no think block: the call stays cached', {}, true],
  ])(
    'the next request after a call shares the cache up to the call (%s)',
    (_name, fields, kept) => {
      // Prepare: a request, the call the model wrote, and the request that carries its result.
      const first = qwen3Tokens(renderQwen3Prompt({ messages: [asks], tools: [tool], ...fields }));
      const written = qwen3Tokens(qwen3ReplyText(null, [call]));
      const next = qwen3Tokens(
        renderQwen3Prompt({
          messages: [
            asks,
            { role: 'assistant', content: null, tool_calls: [call] },
            { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
          ],
          tools: [tool],
          ...fields,
        }),
      );

      // Act
      const shared = commonPrefixLength([...first, ...written], next);

      // Assess: `<think>`, `\n\n`, `</think>`, `\n\n` stand between `assistant\n` and the call
      expect(shared).toBe(kept ? first.length + written.length : first.length - 4);
    },
  );
});
