import { completeChat } from '../shared/conversation/chat/complete-chat';
import { recordChat, toChatCompletion } from './http/answers/chat-response';
import { apiFunctions, apiRoute } from './http/contract/api-routes';
import { chatRequestSchema } from './http/contract/chat-request-schema';
import { createRoute } from './http/edge/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/edge/dispatch-routes';
import type { RouteHandler } from './http/edge/route-request';
import { jsonBody } from './http/request-body/validate-request';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/**
 * POST /api/v0/chat: routines and alerts have the model put their data into words. The node's
 * messages go to the model as they are, without tools or a conversation; the answer comes back
 * as OpenAI's chat completion body, which is what the node reads.
 */
export function createChatHandler(dependencies: ServiceDependencies): RouteHandler {
  const route = apiRoute('chat');
  const { model, clock, ids, settings } = dependencies.conversation;
  const chat = {
    model,
    settings: { deadlineMs: settings.turnDeadlineMs, maxTokens: dependencies.chat.maxTokens },
  };
  return createRoute({
    route,
    body: jsonBody(chatRequestSchema),
    dependencies: dependencies.route,
    handle: async ({ body, logger, metrics }) => {
      const answer = await completeChat(chat, {
        messages: body.messages,
        maxTokens: body.max_tokens ?? null,
      });
      const characters = body.messages.reduce((sum, message) => sum + message.content.length, 0);
      recordChat(answer, { messages: body.messages.length, characters }, logger, metrics);
      return {
        statusCode: route.success.status,
        body: toChatCompletion(answer, {
          id: ids.next('chatcmpl-'),
          createdAt: clock.now(),
          model: dependencies.chat.modelName,
        }),
      };
    },
  });
}

/** Every route of the chat function. */
export function createHandler(dependencies: ServiceDependencies): ProxyHandler {
  return dispatchRoutes(apiFunctions.chat, { chat: createChatHandler(dependencies) });
}

export const handler = lazyHandler({ function: apiFunctions.chat, create: createHandler });
