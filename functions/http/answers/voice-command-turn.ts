import type { CallingNode, ConversationDependencies } from '../../../shared/conversation';
import { handleVoiceCommand, type TurnAnswer } from '../../../shared/conversation';
import type { voiceCommandRequestSchema } from '../contract/request-schemas';
import type { SchemaType } from '../contract/schema-type';
import { requestIdOf } from '../edge/request-id';

/**
 * The turn of voice/command, from its checked body: one place for voice/command and
 * voice/command/stream, which must run the same turn (api.md: same turn, same idempotency).
 */
export function voiceCommandTurn(
  dependencies: ConversationDependencies,
  request: {
    readonly body: SchemaType<typeof voiceCommandRequestSchema>;
    readonly headers: Readonly<Record<string, string | undefined>>;
    readonly node: CallingNode;
  },
): Promise<TurnAnswer> {
  const { body, headers, node } = request;
  return handleVoiceCommand(dependencies, {
    node,
    conversationId: body.conversation_id,
    requestId: requestIdOf(body, headers),
    utterance: body.voice_command,
    speakerUserId: body.speaker_user_id ?? null,
  });
}
