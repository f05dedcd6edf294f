import { expect } from 'vitest';
import { type ApiClient, ROUTES } from '../support/api-client';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import {
  callsReply,
  conversationIdFor,
  fixtureStartBody,
  historyText,
  startWithFixture,
  textReply,
  toolCall,
} from './http-fixtures';
import { expectStarted, expectVoiceResponse, onlyCallOf } from './response-contract';

export type RouteName = keyof typeof ROUTES;
export const ROUTE_NAMES: readonly RouteName[] = ['start', 'command', 'continue'];

/** The id of the call `pendingConversation` leaves open. */
export const PENDING_CALL_ID = 'call_pending_timer';
export const PENDING_UTTERANCE = 'set a five minute timer';

/** A conversation of the client's node with one call pending (`PENDING_CALL_ID`). */
export async function pendingConversation(
  client: ApiClient,
  llm: ScriptedLlmServer,
  label: string,
): Promise<string> {
  const conversationId = await startWithFixture(client, label);
  llm.enqueue(callsReply(toolCall('set_timer', { duration_seconds: 300 }, PENDING_CALL_ID)));
  const response = await client.post(ROUTES.command, {
    conversation_id: conversationId,
    voice_command: PENDING_UTTERANCE,
  });
  expect(onlyCallOf(expectVoiceResponse(response, 'tool_calls')).id).toBe(PENDING_CALL_ID);
  return conversationId;
}

/** A valid body for `route` on a conversation made by `pendingConversation`. */
export function validBody(route: RouteName, conversationId: string): Record<string, unknown> {
  if (route === 'start') return fixtureStartBody(conversationIdFor('fresh'));
  if (route === 'command')
    return { conversation_id: conversationId, voice_command: 'what time is it' };
  return {
    conversation_id: conversationId,
    tool_results: [{ tool_call_id: PENDING_CALL_ID, output: { ok: true } }],
  };
}

/**
 * The request that follows every error: a valid one on the same route and conversation works,
 * which also shows the error left the conversation as it was (its call still pending, and no
 * trace of the failed request in what the model is sent).
 */
export async function expectValidRequestWorks(
  client: ApiClient,
  llm: ScriptedLlmServer,
  route: RouteName,
  conversationId: string,
  failedText?: string,
): Promise<void> {
  const body = validBody(route, conversationId);
  if (route === 'start') {
    expectStarted(await client.post(ROUTES.start, body), String(body.conversation_id));
    return;
  }
  llm.reset();
  llm.enqueue(textReply('All done.'));
  expectVoiceResponse(await client.post(ROUTES[route], body), 'complete');
  const sent = historyText(llm.requests.at(-1));
  expect(sent).toContain(PENDING_UTTERANCE);
  if (failedText !== undefined) expect(sent).not.toContain(failedText);
}
