import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/chat/chat-message';
import { DEFAULT_ENGINE_SETTINGS } from '../../../shared/conversation/engine-settings';
import { toolOutputText } from '../../../shared/conversation/history/bound-history';
import {
  newestExchangeBytes,
  resultShareBytes,
  TURN_GROWTH_BYTES,
} from '../../../shared/conversation/history/conversation-budget';
import { jsonTextBytes } from '../../../shared/conversation/history/json-text-length';
import { utf8Length } from '../../../shared/conversation/history/utf8-length';
import { compile, reply } from '../../support/engine-fixtures';
import { runStep } from '../../support/step-fixture';

const ROOM = DEFAULT_ENGINE_SETTINGS.maxHistoryBytes - TURN_GROWTH_BYTES;

describe('a tool output is cut to its share as stored (escapes counted)', () => {
  it('jsonTextBytes is what JSON.stringify writes, in UTF-8, without the quotes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(jsonTextBytes(text)).toBe(utf8Length(JSON.stringify(text)) - 2);
      }),
    );
  });

  it.each([
    ['quotes', '"'.repeat(8_000)],
    ['control characters', '\u0001'.repeat(8_000)],
    ['lone surrogates', '\ud800'.repeat(8_000)],
    ['emoji', '😀'.repeat(4_000)],
  ])('8,000 units of %s stay within 1,000 bytes stored, with the marker', (_case, output) => {
    // Act
    const text = toolOutputText(output, 1_000);

    // Assess
    expect(jsonTextBytes(text)).toBeLessThanOrEqual(1_000);
    expect(text).toContain('[output cut:');
  });
});

describe('row 5: the turn hands out only calls whose results fit (llm-failure-modes.md)', () => {
  const commandSet = compile({
    available_commands: [
      {
        command_name: 'store_note',
        description: 'store a note',
        parameters: [{ name: 'text', type: 'string', required: true }],
      },
    ],
  });
  const bigCalls = Array.from({ length: 32 }, (_, index) => ({
    id: `call_${index}`,
    name: 'store_note',
    arguments: JSON.stringify({ text: `${'n'.repeat(2_000 + index * 16)}` }),
  }));
  // An exchange that earlier rounds already filled to 75 KB.
  const filled: ChatMessage[] = [
    { role: 'user', content: 'store my notes' },
    { role: 'assistant', content: 'n'.repeat(75_000), toolCalls: [] },
  ];

  it('calls of 2 KiB (three within the 8 KiB a turn reads) into a filled exchange: the node gets those whose results at their full share fit, in one model call', () => {
    // Act
    const { outcome, state } = runStep([reply(null, bigCalls.slice(0, 3))], {
      commandSet,
      exchangeRoomBytes: ROOM,
      messages: filled,
    });

    // Assess: fewer calls, and the continue that answers each at its full share fits the room.
    const handed = outcome.toolCalls.length;
    expect(outcome.modelCalls).toBe(1);
    expect(handed).toBeGreaterThan(0);
    expect(handed).toBeLessThan(3);
    const share = resultShareBytes(DEFAULT_ENGINE_SETTINGS, handed);
    const results: ChatMessage[] = outcome.toolCalls.map((call) => ({
      role: 'tool',
      toolCallId: call.id,
      content: toolOutputText('"'.repeat(20_000), share),
    }));
    expect(newestExchangeBytes([...state.messages, ...results])).toBeLessThanOrEqual(ROOM);
    // The others are recorded as refused, each with its tool message, so the model reads why.
    const refused = state.messages.filter(
      (message) => message.role === 'tool' && message.content.includes('no room left'),
    );
    expect(refused).toHaveLength(3 - handed);
  });

  it('when nothing fits any more, the user hears why and nothing is handed out', () => {
    // Act
    const { outcome } = runStep(
      [
        reply(null, bigCalls.slice(0, 1)),
        reply(null, bigCalls.slice(1, 2)),
        reply(null, bigCalls.slice(2, 3)),
      ],
      { commandSet, exchangeRoomBytes: 6_000 },
    );

    // Assess
    expect(outcome.stopReason).toBe('complete');
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.assistantMessage).toContain('no room left');
  });
});
