import { beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import type { ScriptStep } from '../support/scripted-llm-server';
import { callsReply, toolCall } from './http-fixtures';
import { expectError, expectVoiceResponse } from './response-contract';
import {
  expectValidRequestWorks,
  PENDING_CALL_ID,
  pendingConversation,
  type RouteName,
} from './route-recovery';

const harness = useLocalStack();
let conversationId = '';
beforeEach(async () => {
  conversationId = await pendingConversation(harness.client(), harness.llm, 'model-failure');
  harness.llm.reset();
});

const noRetry = { 'x-should-retry': 'false' };
/** Five answers: as many attempts as the adapter makes, each asking for a 1 ms wait. */
const fiveTimes = (step: ScriptStep): ScriptStep[] => Array.from({ length: 5 }, () => step);

const FAILURES: readonly (readonly [string, readonly ScriptStep[]])[] = [
  ['200 without choices', [{ rawBody: '{"id": "x", "object": "chat.completion", "choices": []}' }]],
  ['200 with a body that is not JSON', [{ rawBody: 'upstream proxy says hello' }]],
  [
    '200 cut off mid-body',
    [{ rawBody: '{"id": "x", "choices": [{"index": 0, "message": {"role": "assi' }],
  ],
  ['400: the model server refuses the request', [{ status: 400 }]],
  ['401: the model server refuses the key', [{ status: 401 }]],
  ['500 that must not be retried', [{ status: 500, headers: noRetry }]],
  ['503 on every attempt', fiveTimes({ status: 503, headers: { 'retry-after-ms': '1' } })],
  [
    'a reply cut off at the token limit, twice',
    [
      { reply: { content: 'The forecast for tomorrow is', finish_reason: 'length' } },
      { reply: { content: 'Tomorrow will be', finish_reason: 'length' } },
    ],
  ],
];

/** A throttle on every attempt has its own code: ops raise a quota, not debug the model. */
const THROTTLES: readonly (readonly [string, readonly ScriptStep[]])[] = [
  ['429 on every attempt', fiveTimes({ status: 429, headers: { 'retry-after-ms': '1' } })],
  // No Retry-After: the adapter's own backoff (about 4 s in all), still far inside the deadline.
  ['429 without Retry-After on every attempt', fiveTimes({ status: 429 })],
];

describe.each([
  ['command', 'llm_failed', FAILURES],
  ['continue', 'llm_failed', FAILURES],
  ['command', 'llm_throttled', THROTTLES],
  ['continue', 'llm_throttled', THROTTLES],
] as const)('502 on %s: %s', (route: RouteName, code, failures) => {
  it.each(failures)(
    'when the model server answers %s; the conversation is unchanged',
    async (_case, steps) => {
      // Prepare
      const failedText = route === 'command' ? 'a request that will fail' : 'output that will fail';
      const failing =
        route === 'command'
          ? { conversation_id: conversationId, voice_command: failedText }
          : {
              conversation_id: conversationId,
              tool_results: [{ tool_call_id: PENDING_CALL_ID, output: failedText }],
            };
      harness.llm.enqueue(...steps);

      // Act
      const response = await harness.client().post(ROUTES[route], failing);

      // Assess
      const error = expectError(response, 502, code);
      expect(harness.llm.requests.length).toBe(steps.length);
      expect(error.error.details).toEqual([
        { failure: expect.any(String), model_calls: expect.any(Number) },
      ]);
      expect(error.error.message).not.toContain('sk-');
      await expectValidRequestWorks(
        harness.client(),
        harness.llm,
        route,
        conversationId,
        failedText,
      );
    },
  );
});

describe('a model that calls server tools forever', () => {
  it('is stopped at the model-call bound with a clear spoken answer, and the conversation goes on', async () => {
    // Prepare: every reply asks for another relative date, never for a node command.
    const forever = Array.from({ length: 12 }, (_, index) =>
      callsReply(
        toolCall('resolve_relative_date', { relative_term: 'today' }, `call_loop_${index}`),
      ),
    );
    harness.llm.enqueue(...forever);

    // Act
    const response = await harness.client().post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: 'what day is it, really',
    });

    // Assess
    const body = expectVoiceResponse(response, 'complete');
    expect(body.tool_calls).toEqual([]);
    expect(body.assistant_message).toMatch(/couldn't finish/);
    expect(body.model_calls).toBe(6);
    expect(harness.llm.requests.length).toBe(6);
    harness.llm.reset();
    harness.llm.enqueue(callsReply(toolCall('set_timer', { duration_seconds: 60 }, 'call_next')));
    const next = await harness.client().post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: 'set a one minute timer',
    });
    expect(expectVoiceResponse(next, 'tool_calls').tool_calls).toHaveLength(1);
  });
});

describe('bounded replies', () => {
  it('every model request carries max_tokens, and the turn reports its token usage', async () => {
    harness.llm.enqueue({ reply: { content: 'Done.' } });

    const response = await harness.client().post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: 'thanks',
    });

    const body = expectVoiceResponse(response, 'complete') as unknown as Record<string, unknown>;
    expect(harness.llm.requests.every((request) => request.body?.max_tokens === 1024)).toBe(true);
    expect(body.usage).toEqual({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
      cached_tokens: 0,
    });
  });
});
