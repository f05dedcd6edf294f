import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { callsReply, startWithFixture, toolCall } from './http-fixtures';
import { expectVoiceResponse, onlyCallOf } from './response-contract';

const harness = useLocalStack();

describe('voice/command', () => {
  it('repairs "5" for an int without asking the model again', async () => {
    // Prepare
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'repair');
    harness.llm.enqueue(callsReply(toolCall('set_timer', { duration_seconds: '300' })));

    // Act
    const response = expectVoiceResponse(
      await client.post(ROUTES.command, {
        conversation_id: conversationId,
        voice_command: 'set a timer for five minutes',
      }),
      'tool_calls',
    );

    // Assess
    expect(onlyCallOf(response).arguments).toEqual({ duration_seconds: 300 });
    expect(response.parameter_repairs).toMatchObject([{ rule: 'parse_integer_string' }]);
    expect(response.model_calls).toBe(1);
    expect(harness.llm.protocolViolations).toEqual([]);
  });
});
