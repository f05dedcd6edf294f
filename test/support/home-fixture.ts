import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The second registration fixture: the real node's conversation/start body with a 50-device home
 * in `node_context.agents` (built as its device agent builds `home_assistant.device_controls`,
 * with its Z-Wave and calendar agents beside it) and the speaker its voice recognition named.
 */
export function homeStartBody(conversationId: string): Record<string, unknown> {
  const path = fileURLToPath(
    new URL('../fixtures/voice-node-conversation-start-home.json', import.meta.url),
  );
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  return { ...parsed, conversation_id: conversationId };
}

/** The fixture's `node_context.agents`. */
export function homeAgents(): Record<string, unknown> {
  const body = homeStartBody('any') as { node_context: { agents: Record<string, unknown> } };
  return body.node_context.agents;
}
