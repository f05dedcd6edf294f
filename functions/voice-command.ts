import { handleVoiceCommand } from '../shared/conversation';
import { type ApiRoute, apiFunctions, apiRoute } from './http/api-routes';
import { createRoute } from './http/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/dispatch-routes';
import { requestIdOf } from './http/request-id';
import { voiceCommandRequestSchema } from './http/request-schemas';
import type { RouteHandler } from './http/route-request';
import { jsonBody } from './http/validate-request';
import { voiceAnswerResult } from './http/voice-response';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/**
 * POST /api/v0/voice/command: which of the node's commands to run for an utterance. The same turn
 * serves voice/command/stream, answered with that route's status (202: JSON, no audio).
 */
export function createVoiceCommandHandler(
  dependencies: ServiceDependencies,
  route: ApiRoute = apiRoute('voice-command'),
): RouteHandler {
  return createRoute({
    route,
    body: jsonBody(voiceCommandRequestSchema),
    dependencies: dependencies.route,
    handle: async ({ body, headers, node, logger, metrics }) => {
      const answer = await handleVoiceCommand(dependencies.conversation, {
        node,
        conversationId: body.conversation_id,
        requestId: requestIdOf(body, headers),
        utterance: body.voice_command,
        speakerUserId: body.speaker_user_id ?? null,
      });
      const request = { conversationId: body.conversation_id, status: route.success.status };
      return voiceAnswerResult(answer, request, logger, metrics);
    },
  });
}

/** Every route of the voice-command function. */
export function createHandler(dependencies: ServiceDependencies): ProxyHandler {
  return dispatchRoutes(apiFunctions.voiceCommand, {
    'voice-command': createVoiceCommandHandler(dependencies),
    'voice-command-stream': createVoiceCommandHandler(
      dependencies,
      apiRoute('voice-command-stream'),
    ),
  });
}

export const handler = lazyHandler(createHandler);
