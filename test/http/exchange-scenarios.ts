import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { type LocalStackHarness, NODE_TIMEZONE } from '../support/local-stack-harness';
import {
  callsReply,
  conversationIdFor,
  fixtureStartBody,
  messagesOf,
  startWithFixture,
  TOMORROW_UTC,
  textReply,
  toolCall,
} from './http-fixtures';
import { expectStarted, expectVoiceResponse, onlyCallOf } from './response-contract';

/**
 * The whole exchange a node makes, over HTTP against `harness`: run for every model provider the
 * stack speaks to (exchange.test.ts: an OpenAI-compatible server; exchange-bedrock.test.ts:
 * Bedrock's endpoint, every request signed).
 */
export function describeExchanges(harness: LocalStackHarness): void {
  describe('POST /api/v0/conversation/start over HTTP', () => {
    it('accepts the registration a real voice node sends (test/fixtures)', async () => {
      // Prepare
      const conversationId = conversationIdFor('fixture');

      // Act
      const response = await harness.client().post(ROUTES.start, fixtureStartBody(conversationId));

      // Assess
      expectStarted(response, conversationId);
      expect(response.json).toMatchObject({ timezone: NODE_TIMEZONE, command_count: 16 });
    });
  });

  describe('a whole exchange over HTTP: start, command, tool calls, continue, complete', () => {
    it('resolves a date through a server tool, hands over the validated call, then completes', async () => {
      // Prepare
      const client = harness.client();
      const conversationId = await startWithFixture(client, 'weather');
      harness.llm.enqueue(
        callsReply(toolCall('resolve_relative_date', { relative_term: 'tomorrow' }, 'call_date')),
        callsReply(
          toolCall(
            'get_weather',
            { city: 'Los Angeles', resolved_datetimes: [TOMORROW_UTC] },
            'call_weather',
          ),
        ),
        textReply('Sunny in Los Angeles tomorrow, high of 24.'),
      );
      const utterance = "What's the forecast for Los Angeles tomorrow?";

      // Act
      const command = await client.post(ROUTES.command, {
        conversation_id: conversationId,
        voice_command: utterance,
      });
      const commandBody = expectVoiceResponse(command, 'tool_calls');
      const resumed = await client.post(ROUTES.continue, {
        conversation_id: conversationId,
        tool_results: [{ tool_call_id: 'call_weather', output: { forecast: 'sunny', high_c: 24 } }],
      });

      // Assess: what the node got
      expect(commandBody.request_information).toEqual({
        voice_command: utterance,
        conversation_id: conversationId,
      });
      expect(onlyCallOf(commandBody)).toEqual({
        id: 'call_weather',
        name: 'get_weather',
        arguments: { city: 'Los Angeles', resolved_datetimes: [TOMORROW_UTC] },
      });
      expect(commandBody.validation_request).toBeNull();
      expect(commandBody.model_calls).toBe(2);
      const final = expectVoiceResponse(resumed, 'complete');
      expect(final).toMatchObject({
        assistant_message: 'Sunny in Los Angeles tomorrow, high of 24.',
        tool_calls: [],
        validation_request: null,
        request_information: { voice_command: utterance, conversation_id: conversationId },
      });

      // Assess: what the model got
      const [first, second, third] = harness.llm.requests;
      expect(harness.llm.protocolViolations).toEqual([]);
      expect(harness.llm.unexpectedRequests).toEqual([]);
      expect(String(messagesOf(first).at(-1)?.content)).toContain(utterance);
      const dateResult = messagesOf(second).find((message) => message.tool_call_id === 'call_date');
      expect(JSON.parse(String(dateResult?.content))).toMatchObject({
        resolved: true,
        timezone: NODE_TIMEZONE,
        utcValues: [expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/)],
      });
      const nodeResult = messagesOf(third).find(
        (message) => message.tool_call_id === 'call_weather',
      );
      expect(JSON.parse(String(nodeResult?.content))).toEqual({ forecast: 'sunny', high_c: 24 });
    });

    it('repairs what cannot change meaning and reports it: "300" for an int reaches the node as 300', async () => {
      // Prepare
      const client = harness.client();
      const conversationId = await startWithFixture(client, 'repair');
      harness.llm.enqueue(
        callsReply(toolCall('set_timer', { duration_seconds: '300', label: 'tea' }, 'call_timer')),
      );

      // Act
      const response = await client.post(ROUTES.command, {
        conversation_id: conversationId,
        voice_command: 'Set a five minute tea timer',
      });

      // Assess
      const body = expectVoiceResponse(response, 'tool_calls');
      expect(onlyCallOf(body).arguments).toEqual({ duration_seconds: 300, label: 'tea' });
      expect(body.parameter_repairs).toEqual([
        expect.objectContaining({ command: 'set_timer', parameter: 'duration_seconds' }),
      ]);
      expect(body.model_calls).toBe(1);
    });
  });
}
