import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The node context of the second fixture: the real node's registration with a 50-device home
 * (`agents`, as its device agent builds `home_assistant.device_controls`, plus the Z-Wave and
 * calendar agents) and the speaker its voice recognition named.
 */
export function homeNodeContext(): { readonly agents: unknown; readonly speakerUserId: number } {
  const path = fileURLToPath(
    new URL('../../test/fixtures/voice-node-conversation-start-home.json', import.meta.url),
  );
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as {
    node_context: { agents: unknown; speaker_user_id: number };
  };
  return { agents: parsed.node_context.agents, speakerUserId: parsed.node_context.speaker_user_id };
}
