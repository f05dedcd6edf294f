import { handleVoiceCommand } from '../shared/conversation';
import { createRoute } from './http/create-route';
import { requestIdOf } from './http/request-id';
import { type VoiceCommandBody, voiceCommandRequestSchema } from './http/request-schemas';
import type { RouteHandler } from './http/route-request';
import { voiceAnswerResult } from './http/voice-response';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/** POST /api/v0/voice/command: which of the node's commands to run for an utterance. */
export function createVoiceCommandHandler(dependencies: ServiceDependencies): RouteHandler {
  return createRoute<VoiceCommandBody>({
    name: 'voice-command',
    schema: voiceCommandRequestSchema,
    dependencies: dependencies.route,
    handle: async ({ body, headers, node, logger, metrics }) => {
      const answer = await handleVoiceCommand(dependencies.conversation, {
        node,
        conversationId: body.conversation_id,
        requestId: requestIdOf(body, headers),
        utterance: body.voice_command,
      });
      const request = { voiceCommand: body.voice_command, conversationId: body.conversation_id };
      return voiceAnswerResult(answer, request, logger, metrics);
    },
  });
}

export const handler = lazyHandler(createVoiceCommandHandler);
