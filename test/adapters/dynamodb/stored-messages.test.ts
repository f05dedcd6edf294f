import { describe, expect, it } from 'vitest';
import { parseStoredMessages } from '../../../shared/adapters/dynamodb/stored-messages';
import { EVERY_ROLE } from './conversation-fixtures';

describe('parseStoredMessages', () => {
  it('accepts the JSON of every message role', () => {
    const json: unknown = JSON.parse(JSON.stringify(EVERY_ROLE));

    const parsed = parseStoredMessages(json);

    expect(parsed).toEqual({ ok: true, value: EVERY_ROLE });
  });

  it('drops fields a message does not have', () => {
    const parsed = parseStoredMessages([{ role: 'user', content: 'hi', extra: 1 }]);

    expect(parsed).toEqual({ ok: true, value: [{ role: 'user', content: 'hi' }] });
  });

  it.each([
    { description: 'an object', value: { role: 'user', content: 'hi' }, issue: 'is not an array' },
    {
      description: 'an unknown role',
      value: [{ role: 'developer', content: 'x' }],
      issue: 'message 0',
    },
    {
      description: 'a user message without content',
      value: [{ role: 'user' }],
      issue: 'message 0',
    },
    {
      description: 'an assistant message without tool calls',
      value: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ],
      issue: 'message 1',
    },
    {
      description: 'a tool call with object arguments',
      value: [
        { role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'n', arguments: {} }] },
      ],
      issue: 'message 0',
    },
    {
      description: 'a tool message without its call id',
      value: [{ role: 'tool', content: 'x' }],
      issue: 'message 0',
    },
    { description: 'null', value: [null], issue: 'message 0' },
  ])('refuses $description', ({ value, issue }) => {
    const parsed = parseStoredMessages(value);

    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.issues.join()).toContain(issue);
  });
});
