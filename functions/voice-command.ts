import { voiceCommandTurn } from './http/answers/voice-command-turn';
import { voiceAnswerResult } from './http/answers/voice-response';
import { apiFunctions, apiRoute } from './http/contract/api-routes';
import { voiceCommandRequestSchema } from './http/contract/request-schemas';
import { createRoute } from './http/edge/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/edge/dispatch-routes';
import type { RouteHandler } from './http/edge/route-request';
import { jsonBody } from './http/request-body/validate-request';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/**
 * POST /api/v0/voice/command: which of the node's commands to run for an utterance (its stream
 * variant, which may answer with speech, is functions/voice-stream.ts).
 */
export function createVoiceCommandHandler(dependencies: ServiceDependencies): RouteHandler {
  const route = apiRoute('voice-command');
  return createRoute({
    route,
    body: jsonBody(voiceCommandRequestSchema),
    dependencies: dependencies.route,
    handle: async ({ body, headers, node, logger, metrics }) => {
      const answer = await voiceCommandTurn(dependencies.conversation, { body, headers, node });
      const request = { conversationId: body.conversation_id, status: route.success.status };
      return voiceAnswerResult(answer, request, logger, metrics);
    },
  });
}

/** Every route of the voice-command function. */
export function createHandler(dependencies: ServiceDependencies): ProxyHandler {
  return dispatchRoutes(apiFunctions.voiceCommand, {
    'voice-command': createVoiceCommandHandler(dependencies),
  });
}

export const handler = lazyHandler({ function: apiFunctions.voiceCommand, create: createHandler });
