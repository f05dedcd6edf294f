import { handleVoiceCommand } from '../shared/conversation';
import { createRoute } from './http/create-route';
import { type VoiceCommandBody, voiceCommandRequestSchema } from './http/request-schemas';
import type { RouteHandler } from './http/route-request';
import { recordTurn, toVoiceCommandResponse } from './http/voice-response';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/** POST /api/v0/voice/command: which of the node's commands to run for an utterance. */
export function createVoiceCommandHandler(dependencies: ServiceDependencies): RouteHandler {
  return createRoute<VoiceCommandBody>({
    name: 'voice-command',
    schema: voiceCommandRequestSchema,
    dependencies: dependencies.route,
    handle: async ({ body, node, logger, metrics }) => {
      const outcome = await handleVoiceCommand(dependencies.conversation, {
        node,
        conversationId: body.conversation_id,
        utterance: body.voice_command,
      });
      recordTurn(outcome, logger, metrics);
      const request = { voiceCommand: body.voice_command, conversationId: body.conversation_id };
      return { statusCode: 200, body: toVoiceCommandResponse(outcome, request) };
    },
  });
}

export const handler = lazyHandler(createVoiceCommandHandler);
