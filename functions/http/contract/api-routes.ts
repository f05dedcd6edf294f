/**
 * The route table: every route of the API, the Lambda function that serves it (of the function
 * table, api-functions.ts), and what the OpenAPI document says of it. The CDK stack, the local
 * server, the OpenAPI document, the SAM sample events, `npm run say`, the load tool and the tests
 * all read it, so adding a route is one entry here (and its handler in the function's entry
 * file). Why the functions are cut this way: docs/decisions/2026-11-23-node-routes.md.
 */

import { type ApiFunction, apiFunctions } from './api-functions';
import { SPEECH_LIMITS } from './speech-limits';

export { type ApiFunction, apiFunctions, type FunctionNeeds } from './api-functions';

/** Names of the component schemas the OpenAPI document defines (openapi-document.ts). */
export type SchemaName =
  | 'ConversationStartRequest'
  | 'ConversationStartResponse'
  | 'VoiceCommandRequest'
  | 'VoiceCommandContinueRequest'
  | 'VoiceCommandResponse'
  | 'StreamFallbackResponse'
  | 'WakeResponse'
  | 'ChatRequest'
  | 'ChatCompletion'
  | 'AcknowledgeRequest'
  | 'AcknowledgeResponse'
  | 'DateContext'
  | 'SpeakRequest'
  | 'TranscriptionResponse';

/** Audio a route answers instead of JSON: a WAV file, or raw PCM streamed with `X-Audio-*`. */
export type AudioMediaType = 'audio/wav' | 'audio/pcm';

/** What a route answers on success: a JSON body of a named schema, or audio. */
export type RouteSuccess =
  | { readonly status: 200 | 202; readonly body: SchemaName }
  | { readonly status: 200; readonly audio: AudioMediaType };

/** A request body that is not JSON: an upload sent as `multipart/form-data`. */
export interface RouteUpload {
  readonly mediaType: 'multipart/form-data';
  /** The form part holding the file. */
  readonly part: string;
  /** The media type of that file. */
  readonly fileType: 'audio/wav';
  /** Larger bodies are a 413 before any work (README, Limits). */
  readonly limitBytes: number;
}

export interface ApiRoute {
  /** Kebab-case name: the sample event file, the metric dimension, the log key. */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly function: ApiFunction;
  readonly operationId: string;
  readonly summary: string;
  /** The JSON body's schema; null for a route that takes none. */
  readonly requestBody: SchemaName | null;
  readonly success: RouteSuccess;
  /**
   * What the route answers instead of `success` when it cannot speak (no speech out configured,
   * an answer that is not final, a synthesis that failed before its first byte).
   */
  readonly fallback?: { readonly status: 202; readonly body: SchemaName };
  /** A non-JSON body (`requestBody` is then null); absent for JSON and body-less routes. */
  readonly upload?: RouteUpload;
  /** Whether a `request_id` / `Idempotency-Key` makes a repeat replay the recorded answer. */
  readonly takesRequestId: boolean;
  /** Whether a success may write a conversation; the others never do, whatever they are sent. */
  readonly changesConversation: boolean;
}

export const apiRoutes = [
  {
    name: 'conversation-start',
    method: 'POST',
    path: '/api/v0/conversation/start',
    function: apiFunctions.conversationStart,
    operationId: 'startConversation',
    summary: 'Register the node’s commands for a conversation',
    requestBody: 'ConversationStartRequest',
    success: { status: 200, body: 'ConversationStartResponse' },
    takesRequestId: false,
    changesConversation: true,
  },
  {
    name: 'voice-command',
    method: 'POST',
    path: '/api/v0/voice/command',
    function: apiFunctions.voiceCommand,
    operationId: 'sendVoiceCommand',
    summary: 'Ask which command to run for an utterance',
    requestBody: 'VoiceCommandRequest',
    success: { status: 200, body: 'VoiceCommandResponse' },
    takesRequestId: true,
    changesConversation: true,
  },
  {
    name: 'voice-command-stream',
    method: 'POST',
    path: '/api/v0/voice/command/stream',
    function: apiFunctions.voiceStream,
    operationId: 'sendVoiceCommandStream',
    summary:
      'The same turn as voice/command: a final answer streamed as speech (200 PCM), else 202 JSON',
    requestBody: 'VoiceCommandRequest',
    success: { status: 200, audio: 'audio/pcm' },
    fallback: { status: 202, body: 'VoiceCommandResponse' },
    takesRequestId: true,
    changesConversation: true,
  },
  {
    name: 'voice-command-continue',
    method: 'POST',
    path: '/api/v0/voice/command/continue',
    function: apiFunctions.voiceCommandContinue,
    operationId: 'continueVoiceCommand',
    summary: 'Return the results of the calls the node ran',
    requestBody: 'VoiceCommandContinueRequest',
    success: { status: 200, body: 'VoiceCommandResponse' },
    takesRequestId: true,
    changesConversation: true,
  },
  {
    name: 'voice-command-continue-stream',
    method: 'POST',
    path: '/api/v0/voice/command/continue/stream',
    function: apiFunctions.voiceStream,
    operationId: 'continueVoiceCommandStream',
    summary:
      'The continue, its final answer streamed as speech (200 PCM); else 202: send the same ' +
      'results to the blocking continue, which answers the outcome already reached',
    requestBody: 'VoiceCommandContinueRequest',
    success: { status: 200, audio: 'audio/pcm' },
    fallback: { status: 202, body: 'StreamFallbackResponse' },
    takesRequestId: true,
    changesConversation: true,
  },
  {
    name: 'voice-acknowledge',
    method: 'POST',
    path: '/api/v0/voice/acknowledge',
    function: apiFunctions.nodeHelpers,
    operationId: 'acknowledgeVoiceCommand',
    summary: 'A short spoken acknowledgement of an utterance, without a model call',
    requestBody: 'AcknowledgeRequest',
    success: { status: 200, body: 'AcknowledgeResponse' },
    takesRequestId: false,
    changesConversation: false,
  },
  {
    name: 'wake-response',
    method: 'POST',
    path: '/api/v0/wake-response',
    function: apiFunctions.nodeHelpers,
    operationId: 'getWakeResponse',
    summary:
      'A short greeting to speak on the wake word, for the node’s time of day; no model call, any body ignored',
    requestBody: null,
    success: { status: 200, body: 'WakeResponse' },
    takesRequestId: false,
    changesConversation: false,
  },
  {
    name: 'chat',
    method: 'POST',
    path: '/api/v0/chat',
    function: apiFunctions.chat,
    operationId: 'chat',
    summary:
      'The node’s messages to the model without tools (routines, alerts); an OpenAI chat completion back',
    requestBody: 'ChatRequest',
    success: { status: 200, body: 'ChatCompletion' },
    takesRequestId: false,
    changesConversation: false,
  },
  {
    name: 'date-context',
    method: 'GET',
    path: '/api/v0/generate/date-context',
    function: apiFunctions.nodeHelpers,
    operationId: 'getDateContext',
    summary: 'Today, tomorrow, this week... as calendar days in the node’s time zone',
    requestBody: null,
    success: { status: 200, body: 'DateContext' },
    takesRequestId: false,
    changesConversation: false,
  },
  {
    name: 'media-transcribe',
    method: 'POST',
    path: '/api/v0/media/whisper/transcribe',
    function: apiFunctions.speech,
    operationId: 'transcribeRecording',
    summary: 'A WAV recording (16-bit PCM) to text',
    requestBody: null,
    upload: {
      mediaType: 'multipart/form-data',
      part: 'file',
      fileType: 'audio/wav',
      limitBytes: SPEECH_LIMITS.uploadBytes,
    },
    success: { status: 200, body: 'TranscriptionResponse' },
    takesRequestId: false,
    changesConversation: false,
  },
  {
    name: 'media-speak',
    method: 'POST',
    path: '/api/v0/media/tts/speak',
    function: apiFunctions.speech,
    operationId: 'speakText',
    summary: 'Text to speech, answered as one WAV file',
    requestBody: 'SpeakRequest',
    success: { status: 200, audio: 'audio/wav' },
    takesRequestId: false,
    changesConversation: false,
  },
  {
    name: 'media-speak-stream',
    method: 'POST',
    path: '/api/v0/media/tts/speak/stream',
    function: apiFunctions.speech,
    operationId: 'speakTextStream',
    summary: 'Text to speech, raw PCM streamed as it is synthesized (format in X-Audio-*)',
    requestBody: 'SpeakRequest',
    success: { status: 200, audio: 'audio/pcm' },
    takesRequestId: false,
    changesConversation: false,
  },
] as const satisfies readonly ApiRoute[];

export type RouteName = (typeof apiRoutes)[number]['name'];

/** The route named `name` (a typo is a type error, not a runtime miss). */
export function apiRoute(name: RouteName): ApiRoute {
  const route = apiRoutes.find((candidate) => candidate.name === name);
  if (route === undefined) throw new Error(`no route ${name}`);
  return route;
}

/** The path of the route named `name`: what clients, tools and tests post to. */
export const routePath = (name: RouteName): string => apiRoute(name).path;

/** The routes one function serves. */
export const routesOf = (fn: ApiFunction): readonly ApiRoute[] =>
  apiRoutes.filter((route) => route.function.id === fn.id);

/**
 * The media types API Gateway passes as bytes (the REST API's `binaryMediaTypes`): what the
 * routes take as uploads and answer as audio. A request of such a type reaches the function
 * base64-encoded (`isBase64Encoded`), as `npm start` sends it too.
 */
export const binaryMediaTypes: readonly string[] = [
  ...new Set(
    apiRoutes.flatMap((route): string[] => [
      ...('upload' in route ? [route.upload.mediaType] : []),
      ...('audio' in route.success ? [route.success.audio] : []),
    ]),
  ),
];
