import { randomUUID } from 'node:crypto';
import { type ApiClient, ROUTES } from '../support/api-client';
import { fixtureRegistration } from '../support/engine-fixtures';
import type {
  RecordedRequest,
  ReplyStep,
  ScriptedToolCall,
  WireMessage,
} from '../support/scripted-llm-server';
import { expectStarted } from './response-contract';

/** A day's start in New York, in UTC: a valid `array<datetime>` entry whatever today is. */
export const TOMORROW_UTC = '2026-01-17T05:00:00Z';

/** A fresh conversation id, readable in a failure message. */
export const conversationIdFor = (label: string): string => `${label}-${randomUUID()}`;

/** The real node's registration (test/fixtures), under another conversation id. */
export const fixtureStartBody = (conversationId: string): Record<string, unknown> => ({
  ...fixtureRegistration(),
  conversation_id: conversationId,
});

/** Starts a conversation with the fixture's commands and checks the 200; returns its id. */
export async function startWithFixture(client: ApiClient, label = 'conversation'): Promise<string> {
  const conversationId = conversationIdFor(label);
  expectStarted(await client.post(ROUTES.start, fixtureStartBody(conversationId)), conversationId);
  return conversationId;
}

/** A tool call as the model sends it: arguments as a JSON string unless given as one already. */
export const toolCall = (name: string, args: unknown, id?: string): ScriptedToolCall => ({
  ...(id === undefined ? {} : { id }),
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

export const callsReply = (...calls: ScriptedToolCall[]): ReplyStep => ({
  reply: { tool_calls: calls },
});

export const textReply = (content: string): ReplyStep => ({ reply: { content } });

/** The messages of a request the scripted model received. */
export const messagesOf = (request: RecordedRequest | undefined): readonly WireMessage[] =>
  request?.body?.messages ?? [];

/** Every text the model was sent in one request, for "was this in the history" checks. */
export const historyText = (request: RecordedRequest | undefined): string =>
  JSON.stringify(messagesOf(request));

/** The node the sample events of infra/sam authenticate as (`X-API-Key: local-node:local-key`). */
export const SAMPLE_NODE = { nodeId: 'local-node', key: 'local-key' } as const;
/** The id the continue sample answers; the scripted model gives its call this id, so no body is edited. */
export const SAMPLE_CALL_ID = 'call_replace_with_id_from_voice_command';

/** The model's side of the sample utterance: a date resolved, then the call the continue sample answers. */
export const SAMPLE_WEATHER_TURN: readonly ReplyStep[] = [
  callsReply(toolCall('resolve_relative_date', { relative_term: 'tomorrow' })),
  callsReply(
    toolCall(
      'get_weather',
      { city: 'Los Angeles', resolved_datetimes: [TOMORROW_UTC] },
      SAMPLE_CALL_ID,
    ),
  ),
];
