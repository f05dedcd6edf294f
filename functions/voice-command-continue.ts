import { continueConversation } from '../shared/conversation';
import { createRoute } from './http/create-route';
import { type ContinueBody, continueRequestSchema } from './http/request-schemas';
import type { RouteHandler } from './http/route-request';
import { recordTurn, toVoiceCommandResponse } from './http/voice-response';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/** POST /api/v0/voice/command/continue: the results of the calls the node ran. */
export function createVoiceCommandContinueHandler(dependencies: ServiceDependencies): RouteHandler {
  return createRoute<ContinueBody>({
    name: 'voice-command-continue',
    schema: continueRequestSchema,
    dependencies: dependencies.route,
    handle: async ({ body, node, logger, metrics }) => {
      const outcome = await continueConversation(dependencies.conversation, {
        node,
        conversationId: body.conversation_id,
        toolResults: body.tool_results.map((result) => ({
          toolCallId: result.tool_call_id,
          output: result.output ?? null,
        })),
      });
      recordTurn(outcome, logger, metrics);
      const request = { voiceCommand: null, conversationId: body.conversation_id };
      return { statusCode: 200, body: toVoiceCommandResponse(outcome, request) };
    },
  });
}

export const handler = lazyHandler(createVoiceCommandContinueHandler);
