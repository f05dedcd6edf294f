import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { startConversation } from '../shared/conversation';
import { apiFunctions, apiRoute } from './http/contract/api-routes';
import { conversationStartRequestSchema } from './http/contract/conversation-start-request-schema';
import type { ConversationStartResponse } from './http/contract/response-schemas';
import { createRoute } from './http/edge/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/edge/dispatch-routes';
import type { RouteHandler } from './http/edge/route-request';
import { jsonBody } from './http/request-body/validate-request';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/** POST /api/v0/conversation/start: registers the node's commands for a conversation. */
export function createConversationStartHandler(dependencies: ServiceDependencies): RouteHandler {
  return createRoute({
    route: apiRoute('conversation-start'),
    body: jsonBody(conversationStartRequestSchema),
    dependencies: dependencies.route,
    handle: async ({ body, node, logger, metrics }) => {
      const started = await startConversation(dependencies.conversation, {
        node,
        conversationId: body.conversation_id,
        requestTimezone: body.node_context?.timezone ?? null,
        commands: {
          available_commands: body.available_commands ?? [],
          client_tools: body.client_tools ?? [],
        },
        skipWarmUp: body.skip_warmup_inference === true,
        agents: body.node_context?.agents ?? null,
        speakerUserId: body.node_context?.speaker_user_id ?? null,
      });
      // A warm-up that failed costs the first turn time, never the start: counted and logged.
      metrics.addMetric(`warmup_${started.warmUp}`, MetricUnit.Count, 1);
      if (started.warmUp === 'failed' || started.warmUp === 'timed_out') {
        logger.warn('model warm-up did not finish', { warmup: started.warmUp });
      }
      return {
        statusCode: 200,
        body: {
          status: 'success',
          conversation_id: started.conversationId,
          timezone: started.timezone,
          command_count: started.commandCount,
          warmup: started.warmUp,
        } satisfies ConversationStartResponse,
      };
    },
  });
}

/** Every route of the conversation-start function. */
export function createHandler(dependencies: ServiceDependencies): ProxyHandler {
  return dispatchRoutes(apiFunctions.conversationStart, {
    'conversation-start': createConversationStartHandler(dependencies),
  });
}

export const handler = lazyHandler({
  function: apiFunctions.conversationStart,
  create: createHandler,
});
