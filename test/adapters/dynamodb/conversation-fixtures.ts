import type { ChatMessage } from '../../../shared/chat/chat-message';
import type { Clock } from '../../../shared/ports/clock';
import type { ConversationRecord } from '../../../shared/ports/conversation-store';

/** 2026-01-17T12:00:00Z: a fixed "now" for every test. */
export const NOW_MS = Date.UTC(2026, 0, 17, 12, 0, 0);
const DAY_SECONDS = 24 * 60 * 60;

/** A clock the test moves by hand. */
export class MovableClock implements Clock {
  #nowMs: number;
  constructor(nowMs: number = NOW_MS) {
    this.#nowMs = nowMs;
  }
  now(): number {
    return this.#nowMs;
  }
  advanceSeconds(seconds: number): void {
    this.#nowMs += seconds * 1000;
  }
}

/** One message of every role, including an assistant tool call and its tool result. */
export const EVERY_ROLE: readonly ChatMessage[] = [
  { role: 'system', content: 'Retry: parameter city expected a string, got 42.' },
  { role: 'user', content: "What's the forecast for Los Angeles tomorrow? ☀️" },
  {
    role: 'assistant',
    content: null,
    toolCalls: [
      {
        id: 'call_abc123',
        name: 'get_weather',
        arguments: '{"city":"Los Angeles","resolved_datetimes":["2026-01-18T05:00:00Z"]}',
      },
      { id: 'call_def456', name: 'get_current_time', arguments: '{}' },
    ],
  },
  { role: 'tool', toolCallId: 'call_abc123', content: '{"forecast":"sunny","high_c":24}' },
  { role: 'tool', toolCallId: 'call_def456', content: '"12:00"' },
  { role: 'assistant', content: 'Sunny tomorrow in Los Angeles, up to 24 degrees.', toolCalls: [] },
];

/** A valid conversation, one day from expiring at `NOW_MS`, with `overrides` applied. */
export function conversationRecord(
  overrides: Partial<ConversationRecord> = {},
): ConversationRecord {
  return {
    nodeId: 'kitchen-node',
    conversationId: 'conversation-1',
    version: 1,
    createdAt: NOW_MS,
    updatedAt: NOW_MS,
    expiresAt: Math.floor(NOW_MS / 1000) + DAY_SECONDS,
    timezone: 'America/New_York',
    room: 'kitchen',
    home: null,
    speakerUserId: null,
    commandSource: '{"available_commands":[],"client_tools":[]}',
    commandSetHash: 'sha256:0f1e2d',
    messages: [{ role: 'user', content: 'hello' }],
    pendingToolCalls: [],
    recentResponses: [],
    ...overrides,
  };
}
