import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/chat/chat-message';
import { historyBeforeTurn } from '../../../shared/conversation/refinement/history-before-turn';

const first: ChatMessage[] = [
  { role: 'user', content: 'play jazz' },
  {
    role: 'assistant',
    content: null,
    toolCalls: [{ id: 'call_1', name: 'music', arguments: '{}' }],
  },
  { role: 'tool', toolCallId: 'call_1', content: '{}' },
  { role: 'assistant', content: 'Playing.', toolCalls: [] },
];
const second: ChatMessage[] = [
  { role: 'user', content: 'play it next' },
  {
    role: 'assistant',
    content: null,
    toolCalls: [{ id: 'call_s', name: 'resolve_relative_date', arguments: '{}' }],
  },
  { role: 'tool', toolCallId: 'call_s', content: '{}' },
  {
    role: 'assistant',
    content: null,
    toolCalls: [{ id: 'call_2', name: 'music', arguments: '{}' }],
  },
];

describe('historyBeforeTurn', () => {
  it('is everything before the user message that opened the turn of the call', () => {
    expect(historyBeforeTurn([...first, ...second], 'call_2')).toEqual(first);
  });

  it('is empty for a call of the first turn', () => {
    expect(historyBeforeTurn([...first, ...second], 'call_1')).toEqual([]);
  });

  it('is null when the call is no longer in the history', () => {
    expect(historyBeforeTurn(second.slice(1), 'call_9')).toBeNull();
    expect(historyBeforeTurn(second.slice(1), 'call_2')).toBeNull();
  });
});
