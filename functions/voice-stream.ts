import { continueConversation } from '../shared/conversation';
import { speakAnswer } from './http/answers/spoken-answer';
import { speechTimeoutMs } from './http/answers/spoken-audio';
import { voiceCommandTurn } from './http/answers/voice-command-turn';
import { recordTurn, voiceAnswerResult } from './http/answers/voice-response';
import { apiFunctions, apiRoute, routePath } from './http/contract/api-routes';
import { continueRequestSchema, voiceCommandRequestSchema } from './http/contract/request-schemas';
import type { StreamFallbackResponse } from './http/contract/response-schemas';
import { createRoute, type RouteInput, type RouteResult } from './http/edge/create-route';
import { dispatchRoutes, type ProxyHandler } from './http/edge/dispatch-routes';
import { requestIdOf } from './http/edge/request-id';
import type { RouteHandler } from './http/edge/route-request';
import { type StreamingHandler, streamResponses } from './http/edge/stream-responses';
import { jsonBody } from './http/request-body/validate-request';
import { createTextToSpeech } from './wiring/create-text-to-speech';
import { lazyHandler } from './wiring/lazy-handler';
import type { ServiceDependencies } from './wiring/service-dependencies';

/** 202: what the stream routes answer when they do not speak (api.md). */
const FALLBACK_STATUS = 202;

/**
 * POST /api/v0/voice/command/stream: the turn of voice/command (same request id, same record).
 * A final answer is streamed as speech (200, PCM, `X-Assistant-Message`) when speech out is
 * configured; anything else, or a synthesis failing before its first byte, is the 202 JSON.
 */
export function createVoiceCommandStreamHandler(dependencies: ServiceDependencies): RouteHandler {
  return createRoute({
    route: apiRoute('voice-command-stream'),
    body: jsonBody(voiceCommandRequestSchema),
    dependencies: dependencies.route,
    handle: async (input) => {
      const { body, headers, node, logger, metrics } = input;
      const answer = await voiceCommandTurn(dependencies.conversation, { body, headers, node });
      const request = { conversationId: body.conversation_id, status: FALLBACK_STATUS };
      const json = voiceAnswerResult(answer, request, logger, metrics);
      const spoken = await speakAnswer(
        dependencies.speech.textToSpeech,
        answer,
        speakOptions(input, dependencies),
      );
      if (spoken === null) return json;
      return { statusCode: 200, headers: spoken.headers, bytes: spoken.chunks };
    },
  });
}

/**
 * POST /api/v0/voice/command/continue/stream. Without speech out: the 202 "use the blocking
 * route" that changes nothing (the conversation is not even read). With it: the continue runs
 * here, its outcome recorded under these very results, and a final answer is streamed as
 * speech; any other outcome is that 202, and the blocking continue the node then sends with the
 * same results replays the recorded outcome (one model call, the results added once).
 */
export function createContinueStreamHandler(dependencies: ServiceDependencies): RouteHandler {
  const blocking = routePath('voice-command-continue');
  return createRoute({
    route: apiRoute('voice-command-continue-stream'),
    body: jsonBody(continueRequestSchema),
    dependencies: dependencies.route,
    handle: async (input): Promise<RouteResult> => {
      const { body, node, logger, metrics } = input;
      const useBlockingRoute = {
        statusCode: FALLBACK_STATUS,
        body: {
          status: 'use_blocking_route',
          message: `No audio for this answer; POST the same tool_results to ${blocking}.`,
          route: blocking,
          conversation_id: body.conversation_id,
        } satisfies StreamFallbackResponse,
      };
      const textToSpeech = dependencies.speech.textToSpeech;
      if (textToSpeech === null) return useBlockingRoute;
      const answer = await continueConversation(dependencies.conversation, {
        node,
        conversationId: body.conversation_id,
        // The node's id, as the blocking continue takes it: its answer is recorded under the id,
        // and, by its results, replayed to the blocking continue the node sends next.
        requestId: requestIdOf(body, input.headers),
        toolResults: body.tool_results.map((result) => ({
          toolCallId: result.tool_call_id,
          output: result.output ?? null,
        })),
      });
      if (!answer.replayed) recordTurn(answer, logger, metrics);
      const spoken = await speakAnswer(textToSpeech, answer, speakOptions(input, dependencies));
      if (spoken === null) return useBlockingRoute;
      return { statusCode: 200, headers: spoken.headers, bytes: spoken.chunks };
    },
  });
}

function speakOptions(input: RouteInput<unknown>, dependencies: ServiceDependencies) {
  const { logger, metrics, lateMetrics, timeLeftMs, clientGone } = input;
  // After the turn: what the invocation has left, at most a turn's deadline.
  const deadline = dependencies.conversation.settings.turnDeadlineMs;
  const timeoutMs = speechTimeoutMs(deadline, timeLeftMs());
  return { timeoutMs, logger, metrics, lateMetrics, signal: clientGone };
}

/** Every route of the voice-stream function, before their answers are written to the stream. */
function createRoutes(dependencies: ServiceDependencies): ProxyHandler {
  return dispatchRoutes(apiFunctions.voiceStream, {
    'voice-command-stream': createVoiceCommandStreamHandler(dependencies),
    'voice-command-continue-stream': createContinueStreamHandler(dependencies),
  });
}

/** The voice-stream function as Lambda runs it: its answers written to the response stream. */
export function createHandler(dependencies: ServiceDependencies): StreamingHandler {
  return streamResponses(createRoutes(dependencies));
}

export const handler = streamResponses(
  lazyHandler({
    function: apiFunctions.voiceStream,
    create: createRoutes,
    speechOut: createTextToSpeech,
  }),
);
