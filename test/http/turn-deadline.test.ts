import { beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { expectError } from './response-contract';
import {
  expectValidRequestWorks,
  PENDING_CALL_ID,
  pendingConversation,
  type RouteName,
} from './route-recovery';

/** Short, yet far above a scripted turn even on a busy machine; the scripted model hangs well past it. */
const DEADLINE_MS = 2_000;
const harness = useLocalStack({ env: { TURN_DEADLINE_MS: String(DEADLINE_MS) } });

let conversationId = '';
beforeEach(async () => {
  conversationId = await pendingConversation(harness.client(), harness.llm, 'deadline');
  harness.llm.reset();
});

describe.each(['command', 'continue'] as const)('504 turn_timeout on %s', (route: RouteName) => {
  it('when the model does not answer within TURN_DEADLINE_MS; the conversation is unchanged', async () => {
    // Prepare
    const failedText = `${route} that will time out`;
    const body =
      route === 'command'
        ? { conversation_id: conversationId, voice_command: failedText }
        : {
            conversation_id: conversationId,
            tool_results: [{ tool_call_id: PENDING_CALL_ID, output: failedText }],
          };
    harness.llm.enqueue({ hangMs: 600_000 });

    // Act
    const response = await harness.client().post(ROUTES[route], body);

    // Assess
    const error = expectError(response, 504, 'turn_timeout');
    expect(error.error.message).toContain(`TURN_DEADLINE_MS=${DEADLINE_MS}`);
    expect(error.error.message).toContain('raise TURN_DEADLINE_MS to 5000');
    expect(error.error.details).toEqual([
      {
        deadline_ms: DEADLINE_MS,
        model_calls: 1,
        elapsed_ms: expect.any(Number),
        suggested_deadline_ms: 5_000,
      },
    ]);
    expect(harness.llm.requests).toHaveLength(1);
    await expectValidRequestWorks(harness.client(), harness.llm, route, conversationId, failedText);
  });
});
