import {
  continueRequestSchema,
  conversationStartRequestSchema,
  LIMITS,
  voiceCommandRequestSchema,
} from './request-schemas';
import {
  conversationStartResponseSchema,
  errorResponseSchema,
  voiceCommandResponseSchema,
} from './response-schemas';

const ERROR_STATUSES: Readonly<Record<string, string>> = {
  '400':
    'Not JSON, fails the request schema, an invalid command set, or tool results that do not match.',
  '401': 'Missing, malformed or wrong X-API-Key.',
  '404': 'Conversation unknown, expired, or another node’s.',
  '409': 'The conversation changed during the request (retry), or nothing is pending to continue.',
  '413': `Body larger than ${LIMITS.bodyBytes} bytes.`,
  '415': 'Content-Type is not application/json.',
  '502': 'The language model failed after the allowed attempts.',
  '503': 'No language model configured (local runs), or the store is unavailable.',
  '504': 'The turn ran out of time.',
};

const withoutId = ({ $id: _id, ...schema }: Record<string, unknown>) => schema;

function operation(summary: string, request: string, response: string) {
  const errors = Object.fromEntries(
    Object.entries(ERROR_STATUSES).map(([status, description]) => [
      status,
      {
        description,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
      },
    ]),
  );
  return {
    post: {
      summary,
      security: [{ nodeKey: [] }],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${request}` } } },
      },
      responses: {
        '200': {
          description: 'Success.',
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${response}` } } },
        },
        ...errors,
      },
    },
  };
}

/** The OpenAPI 3.1 document, built from the very schemas the handlers validate with. */
export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Jarvis Command Center tool API',
      version: '0.1.0',
      description:
        'Voice nodes register commands, send utterances and get validated tool calls back.',
    },
    paths: {
      '/api/v0/conversation/start': operation(
        'Register the node’s commands for a conversation',
        'ConversationStartRequest',
        'ConversationStartResponse',
      ),
      '/api/v0/voice/command': operation(
        'Ask which command to run for an utterance',
        'VoiceCommandRequest',
        'VoiceCommandResponse',
      ),
      '/api/v0/voice/command/continue': operation(
        'Return the results of the calls the node ran',
        'VoiceCommandContinueRequest',
        'VoiceCommandResponse',
      ),
    },
    components: {
      securitySchemes: {
        nodeKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: '<node_id>:<node_key>',
        },
      },
      schemas: {
        ConversationStartRequest: withoutId(conversationStartRequestSchema),
        VoiceCommandRequest: withoutId(voiceCommandRequestSchema),
        VoiceCommandContinueRequest: withoutId(continueRequestSchema),
        ConversationStartResponse: conversationStartResponseSchema,
        VoiceCommandResponse: voiceCommandResponseSchema,
        ErrorResponse: errorResponseSchema,
      },
    },
  };
}
