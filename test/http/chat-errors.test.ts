import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { LIMITS } from '../../functions/http/contract/request-schemas';
import { CHAT_LIMITS } from '../../shared/conversation/chat/chat-limits';
import { useLocalStack } from '../support/local-stack-harness';
import type { ScriptStep } from '../support/scripted-llm-server';
import { textReply } from './http-fixtures';
import { expectError } from './response-contract';

const harness = useLocalStack();
const CHAT = routePath('chat');

const message = (content: string, role = 'system') => ({ role, content });
const many = (count: number) => Array.from({ length: count }, () => message('hi', 'user'));

/** What the README's limits table promises, each answered before the model is asked. */
const OVER_LIMITS: readonly (readonly [string, unknown, number, string, string])[] = [
  ['no messages', { messages: [] }, 400, 'invalid_request', '/messages'],
  [
    `more than ${CHAT_LIMITS.messages} messages`,
    { messages: many(CHAT_LIMITS.messages + 1) },
    400,
    'invalid_request',
    '/messages',
  ],
  [
    `a message over ${CHAT_LIMITS.messageCharacters} characters`,
    { messages: [message('x'.repeat(CHAT_LIMITS.messageCharacters + 1))] },
    400,
    'invalid_request',
    '/messages/0/content',
  ],
  [
    `messages over ${CHAT_LIMITS.totalCharacters} characters together`,
    {
      messages: [
        message('x'.repeat(CHAT_LIMITS.messageCharacters)),
        message('y'.repeat(CHAT_LIMITS.messageCharacters), 'user'),
        message('z', 'user'),
      ],
    },
    413,
    'chat_too_large',
    `${CHAT_LIMITS.totalCharacters}`,
  ],
  [
    `a body over ${LIMITS.bodyBytes} bytes`,
    { messages: [message('😀'.repeat(LIMITS.bodyBytes / 4))] },
    413,
    'payload_too_large',
    `${LIMITS.bodyBytes}`,
  ],
  [
    'max_tokens above MODEL_MAX_TOKENS',
    { messages: [message('hi')], max_tokens: 1025 },
    400,
    'invalid_request',
    'MODEL_MAX_TOKENS',
  ],
  [
    'max_tokens 0',
    { messages: [message('hi')], max_tokens: 0 },
    400,
    'invalid_request',
    '/max_tokens',
  ],
  ['a tool message', { messages: [message('42', 'tool')] }, 400, 'invalid_request', '/role'],
  [
    'a developer message',
    { messages: [message('x', 'developer')] },
    400,
    'invalid_request',
    '/role',
  ],
  [
    'content as a list of parts',
    { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    400,
    'invalid_request',
    '/content',
  ],
  ['no messages field', { prompt: 'hi' }, 400, 'invalid_request', 'messages'],
];

describe('POST /api/v0/chat refuses what is over its limits, before the model is asked', () => {
  it.each(OVER_LIMITS)('%s: %i %s', async (_case, body, status, code, named) => {
    // Act
    const response = await harness.client().post(CHAT, body);

    // Assess
    const error = expectError(response, status, code);
    expect(`${error.error.message} ${JSON.stringify(error.error.details)}`).toContain(named);
    expect(harness.llm.requests).toHaveLength(0);
  });

  it('takes exactly the limits: 32 messages, 32,000 characters each, 64,000 together, max_tokens 1024', async () => {
    // Prepare
    const longest = 'x'.repeat(CHAT_LIMITS.messageCharacters);
    harness.llm.enqueue(textReply('ok'), textReply('ok'));

    // Act
    const most = await harness.client().post(CHAT, { messages: many(CHAT_LIMITS.messages) });
    const longestTogether = await harness.client().post(CHAT, {
      messages: [message(longest), message(longest, 'user')],
      max_tokens: 1024,
    });

    // Assess
    expect(most.status, most.text).toBe(200);
    expect(longestTogether.status, longestTogether.text).toBe(200);
  });
});

describe('POST /api/v0/chat counts characters one way: code points, each message and the total', () => {
  it('takes two messages of 20,000 emoji (40,000 characters, 80,000 UTF-16 units)', async () => {
    // Prepare
    const emoji = '😀'.repeat(20_000);
    harness.llm.enqueue(textReply('ok'));

    // Act
    const response = await harness.client().post(CHAT, {
      messages: [message(emoji), message(emoji, 'user')],
    });

    // Assess
    expect(response.status, response.text).toBe(200);
  });

  it('refuses emoji over the total in code points, naming them', async () => {
    // Prepare: 10,000 emoji and 2 x 28,000 letters: 66,000 characters (76,000 UTF-16 units).
    const letters = 'x'.repeat(28_000);

    // Act
    const response = await harness.client().post(CHAT, {
      messages: [message('😀'.repeat(10_000)), message(letters, 'user'), message(letters, 'user')],
    });

    // Assess
    const error = expectError(response, 413, 'chat_too_large');
    expect(error.error.details).toEqual([
      { limit_characters: CHAT_LIMITS.totalCharacters, received_characters: 66_000 },
    ]);
  });
});

const noRetry = { 'x-should-retry': 'false' };
const fiveTimes = (step: ScriptStep): ScriptStep[] => Array.from({ length: 5 }, () => step);

describe('POST /api/v0/chat when the model fails: the statuses and codes of the voice routes', () => {
  it.each([
    [
      '500 that must not be retried',
      [{ status: 500, headers: noRetry }],
      'unavailable',
      'llm_failed',
    ],
    [
      '503 on every attempt',
      fiveTimes({ status: 503, headers: { 'retry-after-ms': '1' } }),
      'unavailable',
      'llm_failed',
    ],
    [
      '429 on every attempt',
      fiveTimes({ status: 429, headers: { 'retry-after-ms': '1' } }),
      'rate_limited',
      'llm_throttled',
    ],
    ['400: the server refuses the request', [{ status: 400 }], 'rejected', 'llm_failed'],
    [
      '200 without choices',
      [{ rawBody: '{"id": "x", "choices": []}' }],
      'malformed_reply',
      'llm_failed',
    ],
    [
      '200 with a body that is not JSON',
      [{ rawBody: 'upstream proxy says hello' }],
      'malformed_reply',
      'llm_failed',
    ],
  ] as const)('502 on %s (%s: %s)', async (_case, steps, failure, code) => {
    // Prepare
    harness.llm.enqueue(...steps);

    // Act
    const response = await harness.client().post(CHAT, { messages: [message('hi')] });

    // Assess
    const error = expectError(response, 502, code);
    expect(error.error.details).toEqual([{ failure, model_calls: 1 }]);
    expect(harness.llm.unexpectedRequests).toEqual([]);
  });
});

describe('POST /api/v0/chat authenticates first', () => {
  it.each([
    ['no key', null],
    ['a wrong key', 'node-a:wrong-key'],
  ])('%s: 401 before the body is read or the model asked', async (_case, key) => {
    // Act
    const response = await harness.client().post(CHAT, { messages: [] }, { key });

    // Assess
    expectError(response, 401, 'unauthorized');
    expect(harness.llm.requests).toHaveLength(0);
  });
});
