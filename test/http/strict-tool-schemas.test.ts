import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { callsReply, startWithFixture, toolCall } from './http-fixtures';
import { expectVoiceResponse, onlyCallOf } from './response-contract';

const harness = useLocalStack({ env: { STRICT_TOOL_SCHEMAS: 'true' } });

describe('STRICT_TOOL_SCHEMAS=true', () => {
  it('sends the node’s tools strict, and hands over a call without the nulls strict mode adds', async () => {
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'strict');
    harness.llm.enqueue(
      callsReply(toolCall('set_timer', { duration_seconds: 300, label: null }, 'call_strict')),
    );

    const response = await client.post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: 'five minute timer',
    });

    const [request] = harness.llm.requests;
    const tools = (request?.body?.tools ?? []) as unknown as readonly {
      function: { name: string; strict?: boolean };
    }[];
    const nodeTools = tools.filter(
      (tool) =>
        !['resolve_relative_date', 'get_command_utterance_examples', 'request_validation'].includes(
          tool.function.name,
        ),
    );
    expect(nodeTools.length).toBeGreaterThan(0);
    expect(nodeTools.every((tool) => tool.function.strict === true)).toBe(true);
    const call = onlyCallOf(expectVoiceResponse(response, 'tool_calls'));
    expect(call.arguments).toEqual({ duration_seconds: 300 });
  });
});
