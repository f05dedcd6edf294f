import { continueConversation } from '../shared/conversation';
import { createRoute } from './http/create-route';
import { requestIdOf } from './http/request-id';
import { type ContinueBody, continueRequestSchema } from './http/request-schemas';
import type { RouteHandler } from './http/route-request';
import { voiceAnswerResult } from './http/voice-response';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/** POST /api/v0/voice/command/continue: the results of the calls the node ran. */
export function createVoiceCommandContinueHandler(dependencies: ServiceDependencies): RouteHandler {
  return createRoute<ContinueBody>({
    name: 'voice-command-continue',
    schema: continueRequestSchema,
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
      const request = { voiceCommand: null, conversationId: body.conversation_id };
      return voiceAnswerResult(answer, request, logger, metrics);
    },
  });
}

export const handler = lazyHandler(createVoiceCommandContinueHandler);
