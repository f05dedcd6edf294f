import { continueConversation } from '../shared/conversation';
import { apiFunctions, apiRoute, routePath } from './http/api-routes';
import { createRoute } from './http/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/dispatch-routes';
import { requestIdOf } from './http/request-id';
import { continueRequestSchema } from './http/request-schemas';
import type { StreamFallbackResponse } from './http/response-schemas';
import type { RouteHandler } from './http/route-request';
import { jsonBody } from './http/validate-request';
import { voiceAnswerResult } from './http/voice-response';
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

/**
 * POST /api/v0/voice/command/continue/stream: nodes try it first for audio of the final answer.
 * We synthesize no speech, so after the key and the body check out the answer is always 202,
 * which nodes read as "send the same results to the blocking route". It must change nothing:
 * the conversation is not even read.
 */
export function createContinueStreamHandler(dependencies: ServiceDependencies): RouteHandler {
  const route = apiRoute('voice-command-continue-stream');
  const blocking = routePath('voice-command-continue');
  return createRoute({
    route,
    body: jsonBody(continueRequestSchema),
    dependencies: dependencies.route,
    handle: async ({ body }) => ({
      statusCode: route.success.status,
      body: {
        status: 'use_blocking_route',
        message: `No audio is streamed here; POST the same tool_results to ${blocking}.`,
        route: blocking,
        conversation_id: body.conversation_id,
      } satisfies StreamFallbackResponse,
    }),
  });
}

/** Every route of the continue function. */
export function createHandler(dependencies: ServiceDependencies): ProxyHandler {
  return dispatchRoutes(apiFunctions.voiceCommandContinue, {
    'voice-command-continue': createVoiceCommandContinueHandler(dependencies),
    'voice-command-continue-stream': createContinueStreamHandler(dependencies),
  });
}

export const handler = lazyHandler(createHandler);
