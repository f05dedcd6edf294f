import { describe, expect, it } from 'vitest';
import {
  BOUND_MARGIN_CHARACTERS,
  checkConversation,
  type StoredHistory,
} from '../../bench/load/history-check';
import { parseLoadOptions } from '../../bench/load/load-options';
import type { ConversationLog } from '../../bench/load/load-recorder';
import type { ChatMessage } from '../../shared/chat/chat-message';

const NEVER_BOUNDED = 1_000_000;
/** Every history here is within this bound's margin: a missing oldest turn may have been cut. */
const MAY_BE_BOUNDED = BOUND_MARGIN_CHARACTERS + 100;

/** The messages one load exchange leaves: utterance, call, result, spoken answer. */
function exchange(tag: string, callId: string, options: { answered?: boolean } = {}) {
  const messages: ChatMessage[] = [
    { role: 'user', content: `Set a timer for five minutes called ${tag}\n(now: 10:00)` },
    {
      role: 'assistant',
      content: null,
      toolCalls: [{ id: callId, name: 'set_timer', arguments: JSON.stringify({ label: tag }) }],
    },
  ];
  if (options.answered ?? true) {
    messages.push(
      { role: 'tool', toolCallId: callId, content: JSON.stringify({ timer: tag }) },
      { role: 'assistant', content: `Timer ${tag} is running.`, toolCalls: [] },
    );
  }
  return messages;
}

function logOf(turns: readonly string[], results: readonly [string, string][]): ConversationLog {
  return {
    number: 7,
    nodeId: 'load-node-1',
    conversationId: 'run-7',
    acknowledgedTurns: [...turns],
    acknowledgedResults: new Map(results),
  };
}

const history = (messages: ChatMessage[], pending: string[] = []): StoredHistory => ({
  messages,
  pendingToolCalls: pending.map((id) => ({ id })),
});

const RESULTS: [string, string][] = [
  ['call_a', 'load-7-0'],
  ['call_b', 'load-7-1'],
];
const BOTH_TURNS = logOf(['load-7-0', 'load-7-1'], RESULTS);

describe('checkConversation', () => {
  it.each([
    {
      case: 'every acknowledged turn and result stored',
      stored: history([...exchange('load-7-0', 'call_a'), ...exchange('load-7-1', 'call_b')]),
      bound: NEVER_BOUNDED,
      expected: { lostTurns: 0, lostResults: 0, droppedByBound: 0 },
    },
    {
      case: 'the oldest turn missing from a history that was never bounded',
      stored: history(exchange('load-7-1', 'call_b')),
      bound: NEVER_BOUNDED,
      expected: { lostTurns: 1, lostResults: 1, droppedByBound: 0 },
    },
    {
      case: 'the oldest turn missing from a history the bound may have cut',
      stored: history(exchange('load-7-1', 'call_b')),
      bound: MAY_BE_BOUNDED,
      expected: { lostTurns: 0, lostResults: 0, droppedByBound: 1 },
    },
    {
      case: 'the newest turn missing, which the bound never drops',
      stored: history(exchange('load-7-0', 'call_a')),
      bound: MAY_BE_BOUNDED,
      expected: { lostTurns: 1, lostResults: 1, droppedByBound: 0 },
    },
    {
      case: 'no conversation stored at all',
      stored: null,
      bound: NEVER_BOUNDED,
      expected: { lostTurns: 2, lostResults: 2, droppedByBound: 0 },
    },
  ])('$case', ({ stored, bound, expected }) => {
    // Act
    const verdict = checkConversation(BOTH_TURNS, stored, bound);

    // Assess
    expect(verdict).toMatchObject({ ...expected, problems: [] });
  });

  it('counts a tool result acknowledged but stored with other content as lost', () => {
    // Prepare
    const messages = exchange('load-7-0', 'call_a').map((message) =>
      message.role === 'tool' ? { ...message, content: '{"status":"not_executed"}' } : message,
    );

    // Act
    const verdict = checkConversation(
      logOf(['load-7-0'], [['call_a', 'load-7-0']]),
      history(messages),
      NEVER_BOUNDED,
    );

    // Assess
    expect(verdict.lostResults).toBe(1);
  });

  it('accepts the calls of the last turn unanswered while they are pending', () => {
    // Act
    const verdict = checkConversation(
      logOf(['load-7-0'], []),
      history(exchange('load-7-0', 'call_a', { answered: false }), ['call_a']),
      NEVER_BOUNDED,
    );

    // Assess
    expect(verdict).toMatchObject({ lostTurns: 0, lostResults: 0, problems: [] });
  });

  it.each([
    {
      case: 'a call without its result that is not pending',
      messages: [
        ...exchange('load-7-0', 'call_a', { answered: false }),
        ...exchange('load-7-1', 'call_b'),
      ],
      problem: 'calls call_a unanswered',
    },
    {
      case: 'a result answering no call',
      messages: [
        { role: 'tool', toolCallId: 'call_x', content: '{}' } as const,
        ...exchange('load-7-0', 'call_a'),
      ],
      problem: 'result call_x answers no call',
    },
    {
      case: 'a turn of another conversation',
      messages: [...exchange('load-7-0', 'call_a'), ...exchange('load-8-0', 'call_c')],
      problem: 'turn load-8-0 of another conversation',
    },
    {
      case: 'a call for another turn than the utterance it follows',
      messages: [
        ...exchange('load-7-0', 'call_a').slice(0, 1),
        ...exchange('load-7-1', 'call_b').slice(1),
      ],
      problem: 'call call_b not for load-7-0',
    },
    {
      case: 'turns in another order than they were acknowledged',
      messages: [...exchange('load-7-1', 'call_b'), ...exchange('load-7-0', 'call_a')],
      problem: 'turns stored out of order',
    },
  ])('reports $case', ({ messages, problem }) => {
    // Act
    const verdict = checkConversation(BOTH_TURNS, history(messages), NEVER_BOUNDED);

    // Assess
    expect(verdict.problems).toContain(problem);
  });

  it('counts a stored turn that got no 200 apart from the lost ones', () => {
    // Act
    const verdict = checkConversation(
      logOf([], []),
      history(exchange('load-7-0', 'call_a')),
      NEVER_BOUNDED,
    );

    // Assess
    expect(verdict).toMatchObject({ lostTurns: 0, unacknowledgedTurns: 1, problems: [] });
  });
});

describe('parseLoadOptions', () => {
  it.each([
    { argv: [], expected: { requests: 8_000, connections: 50, requestIds: false } },
    { argv: ['--request-ids'], expected: { requests: 8_000, requestIds: true } },
    {
      argv: ['--requests', '900', '--connections', '10'],
      expected: { requests: 900, connections: 10 },
    },
  ])('reads $argv', ({ argv, expected }) => {
    expect(parseLoadOptions(argv)).toMatchObject({ options: expected });
  });

  it.each([
    ['--requests', '0'],
    ['--connections', 'many'],
    ['--requests', '10', '--connections', '50'],
    ['--unknown', '1'],
  ])('refuses %s %s', (...argv) => {
    expect(parseLoadOptions(argv)).toHaveProperty('problem');
  });
});
