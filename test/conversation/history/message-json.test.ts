import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/chat/chat-message';
import {
  historyJson,
  messageBytes,
  messageJson,
} from '../../../shared/conversation/history/message-json';

/** Any message of the four roles, with text that needs escaping and every width of UTF-8. */
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const anyMessage: fc.Arbitrary<ChatMessage> = fc.oneof(
  fc.record({ role: fc.constant('system' as const), content: anyText }),
  fc.record({ role: fc.constant('user' as const), content: anyText }),
  fc.record({
    role: fc.constant('assistant' as const),
    content: fc.option(anyText, { nil: null }),
    toolCalls: fc.array(fc.record({ id: anyText, name: anyText, arguments: anyText }), {
      maxLength: 3,
    }),
  }),
  fc.record({ role: fc.constant('tool' as const), toolCallId: anyText, content: anyText }),
);

describe('a history measured and written from each message once', () => {
  it('writes what JSON.stringify writes and counts its UTF-8 bytes, asked once or twice', () => {
    fc.assert(
      fc.property(fc.array(anyMessage, { maxLength: 8 }), (messages) => {
        // Asked twice: the second answer comes from what the first wrote down.
        for (const _ of [1, 2]) {
          expect(historyJson(messages)).toBe(JSON.stringify(messages));
          for (const message of messages) {
            expect(messageJson(message)).toBe(JSON.stringify(message));
            expect(messageBytes(message)).toBe(Buffer.byteLength(JSON.stringify(message)));
          }
        }
      }),
    );
  });

  it('a message that is another object is measured afresh, even with the same text', () => {
    const first: ChatMessage = { role: 'user', content: 'set a timer' };
    const second: ChatMessage = { role: 'user', content: 'set a timer for ten minutes ✓' };
    expect(messageBytes(first)).toBe(39);
    expect(messageBytes(second)).toBe(Buffer.byteLength(JSON.stringify(second)));
    expect(historyJson([first, second, first])).toBe(JSON.stringify([first, second, first]));
  });
});
