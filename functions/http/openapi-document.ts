import {
  continueRequestSchema,
  conversationStartRequestSchema,
  ID_PATTERN,
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
  '409':
    'The conversation changed during the request (retry), nothing is pending to continue, or a ' +
    'request with this request id is still running (retry after Retry-After).',
  '413': `Body larger than ${LIMITS.bodyBytes} bytes.`,
  '415': 'Content-Type is not application/json.',
  '502': 'The language model failed after the allowed attempts.',
  '503': 'No language model configured (local runs), or the store is unavailable.',
  '504': 'The turn ran out of time.',
};

/** Statuses only the voice routes answer: they take a request id. */
const VOICE_ERROR_STATUSES: Readonly<Record<string, string>> = {
  '422': 'The request id was used before in this conversation with a different body.',
};

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

const replayedHeader = {
  'Idempotent-Replayed': {
    description:
      '`true` when this is the recorded response to an earlier request with the same id.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const withoutId = ({ $id: _id, ...schema }: Record<string, unknown>) => schema;

function operation(summary: string, request: string, response: string, idempotent: boolean) {
  const statuses = idempotent ? { ...ERROR_STATUSES, ...VOICE_ERROR_STATUSES } : ERROR_STATUSES;
  const errors = Object.fromEntries(
    Object.entries(statuses)
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([status, description]) => [
        status,
        {
          description,
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } },
          },
        },
      ]),
  );
  return {
    post: {
      summary,
      security: [{ nodeKey: [] }],
      ...(idempotent ? { parameters: [idempotencyKeyParameter] } : {}),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${request}` } } },
      },
      responses: {
        '200': {
          description: 'Success.',
          ...(idempotent ? { headers: replayedHeader } : {}),
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
        false,
      ),
      '/api/v0/voice/command': operation(
        'Ask which command to run for an utterance',
        'VoiceCommandRequest',
        'VoiceCommandResponse',
        true,
      ),
      '/api/v0/voice/command/continue': operation(
        'Return the results of the calls the node ran',
        'VoiceCommandContinueRequest',
        'VoiceCommandResponse',
        true,
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
