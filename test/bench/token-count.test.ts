import { describe, expect, it } from 'vitest';
import { chatPromptSize } from '../../bench/token-count';

describe('chatPromptSize', () => {
  it('counts o200k tokens as OpenAI does for messages, plus the tools as JSON', () => {
    // Prepare: "hello world" is 2 o200k tokens, "system" and "user" 1 each
    const tools = [{ type: 'function', function: { name: 'f' } }];

    // Act
    const size = chatPromptSize({
      messages: [
        { role: 'system', content: 'hello world' },
        { role: 'user', content: 'hello' },
      ],
      tools,
    });

    // Assess
    expect(size.messageTokens).toEqual([3 + 1 + 2, 3 + 1 + 1]);
    expect(size.toolTokens).toBeGreaterThan(5);
    expect(size.o200kTokens).toBe(6 + 5 + size.toolTokens + 3);
    expect(size.characters).toBe(
      'hello world'.length + 'hello'.length + JSON.stringify(tools).length,
    );
  });

  it('counts a message without tools, and text that spells a special token, without throwing', () => {
    // Act
    const size = chatPromptSize({ messages: [{ role: 'user', content: '<|endoftext|>' }] });

    // Assess
    expect(size.toolTokens).toBe(0);
    expect(size.characters).toBe(13);
    expect(size.o200kTokens).toBeGreaterThan(3 + 1 + 1 + 3);
  });
});
