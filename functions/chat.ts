import { completeChat } from '../shared/conversation/chat/complete-chat';
import { apiFunctions, apiRoute } from './http/api-routes';
import { chatRequestSchema } from './http/chat-request-schema';
import { recordChat, toChatCompletion } from './http/chat-response';
import { createRoute } from './http/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/dispatch-routes';
import type { RouteHandler } from './http/route-request';
import { jsonBody } from './http/validate-request';
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
