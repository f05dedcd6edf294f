import { describe, expect, it } from 'vitest';
import { stripThinkBlocks } from '../../../shared/conversation/tool-calls';

describe('stripThinkBlocks', () => {
  it.each([
    ['no reasoning', 'It is sunny.', 'It is sunny.'],
    ['a block before the answer', '<think>user wants weather</think>It is sunny.', 'It is sunny.'],
    ['the <thinking> spelling', '<thinking>hmm</thinking>Done.', 'Done.'],
    ['several blocks', 'A<think>x</think>B<think>y</think>C', 'ABC'],
    ['an unclosed block hides the rest', 'Sure.<think>cut off while thinking', 'Sure.'],
    ['an unclosed block alone is all reasoning', '<think>still thinking', ''],
    [
      'a closing tag without an opening hides what came before',
      'reasoning...</think>Answer.',
      'Answer.',
    ],
    ['an opening tag inside a block is reasoning', '<think>a<think>b</think>c', 'c'],
    ['tags are case-sensitive, as models write them', '<THINK>x</THINK>y', '<THINK>x</THINK>y'],
  ])('%s', (_case, text, expected) => {
    // Act
    const stripped = stripThinkBlocks(text);

    // Assess
    expect(stripped).toBe(expected);
  });
});
