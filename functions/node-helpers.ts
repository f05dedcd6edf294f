import { acknowledgeUtterance } from '../shared/conversation/acknowledgement/acknowledge-utterance';
import { dateContextForNode } from '../shared/conversation/use-cases/date-context-for-node';
import { wakeResponseForNode } from '../shared/conversation/use-cases/wake-response-for-node';
import { apiFunctions, apiRoute } from './http/contract/api-routes';
import { acknowledgeRequestSchema } from './http/contract/request-schemas';
import type { AcknowledgeResponse, WakeResponse } from './http/contract/response-schemas';
import { createRoute } from './http/edge/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/edge/dispatch-routes';
import type { RouteHandler } from './http/edge/route-request';
import { jsonBody, NO_BODY } from './http/request-body/validate-request';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/**
 * POST /api/v0/voice/acknowledge: a short phrase the node speaks while the turn runs. No model
 * call, so it answers in milliseconds and never fails because a model did.
 */
export function createAcknowledgeHandler(dependencies: ServiceDependencies): RouteHandler {
  const route = apiRoute('voice-acknowledge');
  return createRoute({
    route,
    body: jsonBody(acknowledgeRequestSchema),
    dependencies: dependencies.route,
    handle: async ({ body }) => ({
      statusCode: route.success.status,
      body: { text: acknowledgeUtterance(body.voice_command) } satisfies AcknowledgeResponse,
    }),
  });
}

/** GET /api/v0/generate/date-context?timezone=: the node's calendar days, in its zone. */
export function createDateContextHandler(dependencies: ServiceDependencies): RouteHandler {
  const route = apiRoute('date-context');
  const { clock } = dependencies.conversation;
  return createRoute({
    route,
    body: NO_BODY,
    dependencies: dependencies.route,
    handle: async ({ node, query }) => ({
      statusCode: route.success.status,
      body: dateContextForNode(node, query.timezone ?? null, clock.now()),
    }),
  });
}

/**
 * POST /api/v0/wake-response: the greeting a node speaks on its wake word, for the time of day
 * on its own clock. No model call and no body read (the node sends none), so it answers at once
 * and never fails once the node is known.
 */
export function createWakeResponseHandler(dependencies: ServiceDependencies): RouteHandler {
  const route = apiRoute('wake-response');
  const { clock } = dependencies.conversation;
  const { random } = dependencies;
  return createRoute({
    route,
    body: NO_BODY,
    dependencies: dependencies.route,
    handle: async ({ node }) => ({
      statusCode: route.success.status,
      body: {
        text: wakeResponseForNode(node, clock.now(), random.next()),
      } satisfies WakeResponse,
    }),
  });
}

/** Every route of the node-helpers function. */
export function createHandler(dependencies: ServiceDependencies): ProxyHandler {
  return dispatchRoutes(apiFunctions.nodeHelpers, {
    'voice-acknowledge': createAcknowledgeHandler(dependencies),
    'date-context': createDateContextHandler(dependencies),
    'wake-response': createWakeResponseHandler(dependencies),
  });
}

export const handler = lazyHandler({ function: apiFunctions.nodeHelpers, create: createHandler });
