import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { callsReply, messagesOf, startWithFixture, textReply, toolCall } from './http-fixtures';
import { expectVoiceResponse, onlyCallOf } from './response-contract';

const harness = useLocalStack();

describe('a clarification round trip over HTTP', () => {
  it('asks the user after the retries run out, takes the answer through continue, then calls', async () => {
    // Prepare
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'clarify');
    const invalid = callsReply(toolCall('calculate', { num1: 2, num2: 3, operation: 'power' }));
    harness.llm.enqueue(
      invalid,
      invalid,
      invalid,
      callsReply(toolCall('calculate', { num1: 2, num2: 3, operation: 'multiply' }, 'call_calc')),
      textReply('Two times three is six.'),
    );

    // Act
    const asked = expectVoiceResponse(
      await client.post(ROUTES.command, {
        conversation_id: conversationId,
        voice_command: 'two to the three',
      }),
      'validation_required',
    );
    const toolCallId = asked.validation_request?.tool_call_id ?? '';
    const called = expectVoiceResponse(
      await client.post(ROUTES.continue, {
        conversation_id: conversationId,
        tool_results: [{ tool_call_id: toolCallId, output: 'multiply' }],
      }),
      'tool_calls',
    );
    const done = expectVoiceResponse(
      await client.post(ROUTES.continue, {
        conversation_id: conversationId,
        tool_results: [{ tool_call_id: 'call_calc', output: { result: 6 } }],
      }),
      'complete',
    );

    // Assess
    expect(asked.validation_request).toMatchObject({
      parameter_name: 'operation',
      options: ['add', 'subtract', 'multiply', 'divide'],
    });
    expect(asked.tool_calls).toEqual([]);
    expect(onlyCallOf(called).arguments).toEqual({ num1: 2, num2: 3, operation: 'multiply' });
    expect(done.assistant_message).toBe('Two times three is six.');
    const answer = messagesOf(harness.llm.requests[3]).find(
      (message) => message.tool_call_id === toolCallId,
    );
    expect(answer?.content).toBe('multiply');
    expect(harness.llm.protocolViolations).toEqual([]);
  });

  it('a question the model asks itself (request_validation) is answered with an object', async () => {
    // Prepare
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'ask');
    harness.llm.enqueue(
      callsReply(
        toolCall('request_validation', {
          question: 'Which room should I turn the lights off in?',
          parameter_name: 'device_name',
          options: ['kitchen', 'bedroom'],
        }),
      ),
      callsReply(
        toolCall(
          'control_device',
          { device_name: 'kitchen lights', action: 'turn_off' },
          'call_lights',
        ),
      ),
    );

    // Act
    const asked = expectVoiceResponse(
      await client.post(ROUTES.command, {
        conversation_id: conversationId,
        voice_command: 'lights off',
      }),
      'validation_required',
    );
    const called = expectVoiceResponse(
      await client.post(ROUTES.continue, {
        conversation_id: conversationId,
        tool_results: [
          { tool_call_id: asked.validation_request?.tool_call_id, output: { answer: 'kitchen' } },
        ],
      }),
      'tool_calls',
    );

    // Assess
    expect(asked.validation_request).toMatchObject({
      question: 'Which room should I turn the lights off in?',
      parameter_name: 'device_name',
      options: ['kitchen', 'bedroom'],
    });
    expect(onlyCallOf(called)).toMatchObject({ id: 'call_lights', name: 'control_device' });
    expect(harness.llm.protocolViolations).toEqual([]);
  });
});
