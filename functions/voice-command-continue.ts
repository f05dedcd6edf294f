import { continueConversation } from '../shared/conversation';
import { voiceAnswerResult } from './http/answers/voice-response';
import { apiFunctions, apiRoute } from './http/contract/api-routes';
import { continueRequestSchema } from './http/contract/request-schemas';
import { createRoute } from './http/edge/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/edge/dispatch-routes';
import { requestIdOf } from './http/edge/request-id';
import type { RouteHandler } from './http/edge/route-request';
import { jsonBody } from './http/request-body/validate-request';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/** POST /api/v0/voice/command/continue: the results of the calls the node ran. */
export function createVoiceCommandContinueHandler(dependencies: ServiceDependencies): RouteHandler {
  const route = apiRoute('voice-command-continue');
  return createRoute({
    route,
    body: jsonBody(continueRequestSchema),
    dependencies: dependencies.route,
    handle: async ({ body, headers, node, logger, metrics }) => {
      const answer = await continueConversation(dependencies.conversation, {
        node,
        conversationId: body.conversation_id,
        requestId: requestIdOf(body, headers),
        toolResults: body.tool_results.map((result) => ({
          toolCallId: result.tool_call_id,
          output: result.output ?? null,
        })),
      });
      const request = { conversationId: body.conversation_id, status: route.success.status };
      return voiceAnswerResult(answer, request, logger, metrics);
    },
  });
}

/** Every route of the continue function. */
export function createHandler(dependencies: ServiceDependencies): ProxyHandler {
  return dispatchRoutes(apiFunctions.voiceCommandContinue, {
    'voice-command-continue': createVoiceCommandContinueHandler(dependencies),
  });
}

export const handler = lazyHandler({
  function: apiFunctions.voiceCommandContinue,
  create: createHandler,
});
