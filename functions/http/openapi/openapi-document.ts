import { type ApiRoute, apiRoutes, type SchemaName } from '../contract/api-routes';
import { chatCompletionSchema } from '../contract/chat-completion-schema';
import { chatRequestSchema } from '../contract/chat-request-schema';
import { conversationStartRequestSchema } from '../contract/conversation-start-request-schema';
import { dateContextSchema } from '../contract/date-context-schema';
import {
  acknowledgeRequestSchema,
  continueRequestSchema,
  ID_PATTERN,
  LIMITS,
  voiceCommandRequestSchema,
} from '../contract/request-schemas';
import {
  acknowledgeResponseSchema,
  conversationStartResponseSchema,
  errorResponseSchema,
  streamFallbackResponseSchema,
  voiceCommandResponseSchema,
  wakeResponseSchema,
} from '../contract/response-schemas';
import { speakRequestSchema, transcriptionResponseSchema } from '../contract/speech-schemas';
import { ERROR_STATUSES, methodNotAllowed, VOICE_ERROR_STATUSES } from './openapi-error-statuses';
import { jsonContent, requestBodyOf, successResponse } from './openapi-media';

/** Where the API is served: `npm start`, and a deployed stage (the stack's ApiUrl output). */
export const OPENAPI_SERVERS = [
  {
    url: 'http://127.0.0.1:3000',
    description: '`npm start` on this machine (HOST and PORT move it).',
  },
  {
    url: 'https://{apiId}.execute-api.{region}.amazonaws.com/{stage}',
    description:
      'A deployed stage: the `ApiUrl` output of the JccStateless stack (docs/deploy.md).',
    variables: {
      apiId: { default: 'your-api-id', description: 'The REST API id in the `ApiUrl` output.' },
      region: { default: 'us-east-1', description: 'The region `cdk deploy` deployed to.' },
      // The stage the CDK app names (infra/stacks/voice-api.ts stageName; a test keeps them equal).
      stage: { default: 'prod', enum: ['prod'] },
    },
  },
];

const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Alternative to the body’s `request_id` (the same value if both are sent): a repeat with the ' +
    'same key and body gets the recorded response without a new model call.',
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: LIMITS.idCharacters,
    pattern: ID_PATTERN,
  },
};

const withoutId = ({ $id: _id, ...schema }: Record<string, unknown>) => schema;

/** The component schemas the route table names. */
const SCHEMAS: Readonly<Record<SchemaName, Record<string, unknown>>> = {
  ConversationStartRequest: withoutId(conversationStartRequestSchema),
  ConversationStartResponse: conversationStartResponseSchema,
  VoiceCommandRequest: withoutId(voiceCommandRequestSchema),
  VoiceCommandContinueRequest: withoutId(continueRequestSchema),
  VoiceCommandResponse: voiceCommandResponseSchema,
  StreamFallbackResponse: streamFallbackResponseSchema,
  WakeResponse: wakeResponseSchema,
  ChatRequest: withoutId(chatRequestSchema),
  ChatCompletion: chatCompletionSchema,
  AcknowledgeRequest: withoutId(acknowledgeRequestSchema),
  AcknowledgeResponse: acknowledgeResponseSchema,
  DateContext: dateContextSchema,
  SpeakRequest: withoutId(speakRequestSchema),
  TranscriptionResponse: transcriptionResponseSchema,
};

const timezoneParameter = {
  name: 'timezone',
  in: 'query',
  required: false,
  description:
    'IANA zone, used only when the registry holds none for the node (an unknown name is a 400).',
  schema: { type: 'string', maxLength: 64 },
};

function operation(route: ApiRoute) {
  const statuses = {
    ...ERROR_STATUSES,
    ...(route.takesRequestId ? VOICE_ERROR_STATUSES : {}),
  };
  const errors = Object.fromEntries(
    Object.entries(statuses)
      .filter(([status]) => requestBodyOf(route) !== null || !BODY_STATUSES.has(status))
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([status, description]) => [
        status,
        { description, content: jsonContent('ErrorResponse') },
      ]),
  );
  const requestBody = requestBodyOf(route);
  const parameters = [
    ...(route.takesRequestId ? [idempotencyKeyParameter] : []),
    ...(route.method === 'GET' ? [timezoneParameter] : []),
  ];
  return {
    operationId: route.operationId,
    summary: route.summary,
    security: [{ nodeKey: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody === null ? {} : { requestBody }),
    responses: {
      [String(route.success.status)]: successResponse(route, route.success),
      ...(route.fallback === undefined
        ? {}
        : { [String(route.fallback.status)]: successResponse(route, route.fallback) }),
      ...errors,
      '405': methodNotAllowed,
    },
  };
}

/** Statuses only a route with a body can answer. */
const BODY_STATUSES = new Set(['413', '415']);

/** The OpenAPI 3.1 document, built from the route table and the schemas the handlers validate with. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of apiRoutes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Jarvis Command Center tool API',
      version: '0.1.0',
      description:
        'Voice nodes register commands, send utterances and get validated tool calls back.',
      // package.json is private and names no license: nothing is granted (an SPDX LicenseRef).
      license: { name: 'Proprietary: no license is granted', identifier: 'LicenseRef-Proprietary' },
    },
    servers: OPENAPI_SERVERS,
    paths,
    components: {
      securitySchemes: {
        nodeKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: '<node_id>:<node_key>',
        },
      },
      schemas: { ...SCHEMAS, ErrorResponse: errorResponseSchema },
    },
  };
}
