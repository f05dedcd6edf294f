import type { APIGatewayProxyResult } from 'aws-lambda';
import { expect } from 'vitest';
import { DYNAMODB_CLIENT_DEFAULTS } from '../../shared/adapters/dynamodb/client';
import type { RoutePath } from './handler-harness';

export const START: RoutePath = '/api/v0/conversation/start';
export const COMMAND: RoutePath = '/api/v0/voice/command';
export const CONTINUE: RoutePath = '/api/v0/voice/command/continue';

/** The call left open by the utterance that prepares every conversation of these tests. */
export const PENDING_CALL_ID = 'call_pending_timer';

export const registration = (conversationId: string): Record<string, unknown> => ({
  conversation_id: conversationId,
  available_commands: [
    {
      command_name: 'set_timer',
      description: 'Start a timer.',
      parameters: [{ name: 'duration_seconds', type: 'int', required: true }],
      allow_direct_answer: true,
    },
  ],
});

/** A valid request of `path` on a conversation whose call `PENDING_CALL_ID` is open. */
export function validBody(path: RoutePath, conversationId: string): Record<string, unknown> {
  if (path === START) return registration(conversationId);
  if (path === COMMAND)
    return { conversation_id: conversationId, voice_command: 'what time is it' };
  return {
    conversation_id: conversationId,
    tool_results: [{ tool_call_id: PENDING_CALL_ID, output: { ok: true } }],
  };
}

/** The slowest a failed DynamoDB call can be: every attempt waits out both timeouts, plus backoff. */
export const ANSWER_BOUND_MS =
  DYNAMODB_CLIENT_DEFAULTS.maxAttempts *
    (DYNAMODB_CLIENT_DEFAULTS.connectionTimeoutMs + DYNAMODB_CLIENT_DEFAULTS.requestTimeoutMs) +
  5_000;

/**
 * The handler's answer, or a failure naming the hang if none comes within `ANSWER_BOUND_MS`: a
 * liveness bound from the client's timeouts, far above the expected answer time, not a benchmark.
 */
export async function answeredWithinBound<T>(answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${ANSWER_BOUND_MS} ms: the handler hangs`)),
      ANSWER_BOUND_MS,
    );
  });
  try {
    return await Promise.race([answer, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** 503 `storage_unavailable` with the JSON error body of api.md and nothing of the cause in it. */
export function expectStorageUnavailable(response: APIGatewayProxyResult): void {
  expect({ status: response.statusCode, body: JSON.parse(response.body) }).toEqual({
    status: 503,
    body: {
      error: {
        code: 'storage_unavailable',
        message: 'The conversation store is unavailable; retry shortly.',
        details: [],
      },
    },
  });
  expect(response.headers?.['Content-Type']).toBe('application/json');
}
