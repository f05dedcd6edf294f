import type { SchemaType } from './schema-type';

/**
 * The JSON Schemas of the responses (api.md), for the OpenAPI document and the contract tests;
 * the types the routes build and the tests read are derived from them (`SchemaType`).
 */
const nullableText = { type: ['string', 'null'] } as const;
const text = { type: 'string' } as const;

export const errorResponseSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'array' },
      },
    },
  },
} as const;

export const conversationStartResponseSchema = {
  type: 'object',
  required: ['status', 'conversation_id'],
  properties: {
    status: { const: 'success' },
    conversation_id: { type: 'string' },
    timezone: { type: 'string', description: 'The zone this conversation resolves dates in.' },
    command_count: { type: 'integer' },
    warmup: {
      enum: ['warmed', 'skipped', 'recently_warmed', 'no_model', 'timed_out', 'failed'],
      description: 'What became of the model warm-up (observability; the start succeeded anyway).',
    },
  },
} as const;

export const voiceCommandResponseSchema = {
  type: 'object',
  required: [
    'commands',
    'request_information',
    'stop_reason',
    'assistant_message',
    'tool_calls',
    'validation_request',
  ],
  properties: {
    commands: { type: 'array', maxItems: 0, description: 'Always empty; kept for older nodes.' },
    request_information: {
      type: 'object',
      required: ['voice_command', 'conversation_id'],
      properties: {
        voice_command: {
          type: 'string',
          description: 'The utterance that opened the turn (on continue, the one continued).',
        },
        conversation_id: text,
      },
    },
    stop_reason: { enum: ['tool_calls', 'validation_required', 'complete'] },
    assistant_message: nullableText,
    tool_calls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type', 'function'],
        properties: {
          id: { type: 'string', minLength: 1 },
          type: { const: 'function' },
          function: {
            type: 'object',
            required: ['name', 'arguments'],
            properties: {
              name: { type: 'string' },
              arguments: {
                type: 'string',
                description: 'A JSON object, as a string, valid for the declared parameters.',
              },
            },
          },
        },
      },
    },
    validation_request: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['question', 'parameter_name', 'options', 'tool_call_id'],
          properties: {
            question: { type: 'string' },
            parameter_name: { type: 'string' },
            options: { type: ['array', 'null'], items: { type: 'string' } },
            tool_call_id: { type: 'string', minLength: 1 },
          },
        },
      ],
    },
    parameter_repairs: {
      description:
        'The repairs made to the calls in tool_calls, each once; none of a call the model redid (docs/parameters.md).',
      type: 'array',
      items: {
        type: 'object',
        required: ['command', 'parameter', 'rule'],
        properties: {
          command: { type: 'string' },
          parameter: { type: 'string' },
          rule: { type: 'string' },
          before: {},
          after: {},
        },
      },
    },
    retries: { type: 'array', items: { type: 'object' } },
    model_calls: { type: 'integer', minimum: 0 },
    usage: {
      description: 'Tokens of the turn’s model calls, as the model server reported them.',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['prompt_tokens', 'completion_tokens', 'cached_tokens'],
          properties: {
            prompt_tokens: { type: 'integer', minimum: 0 },
            completion_tokens: { type: 'integer', minimum: 0 },
            cached_tokens: { type: 'integer', minimum: 0 },
          },
        },
      ],
    },
    refinement: {
      description:
        'Observability: this call refines the last call of a command with refinable parameters ' +
        '(the same command again, for a follow-up such as "louder"). Null otherwise.',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['command', 'tool_call_id', 'refines_tool_call_id', 'changed'],
          properties: {
            command: { type: 'string' },
            tool_call_id: { type: 'string', description: 'The call in `tool_calls`.' },
            refines_tool_call_id: { type: 'string', description: 'The earlier call it refines.' },
            changed: {
              type: 'array',
              items: { type: 'string' },
              description: 'Parameters whose value differs from the refined call.',
            },
          },
        },
      ],
    },
  },
} as const;

export const streamFallbackResponseSchema = {
  type: 'object',
  required: ['status', 'message', 'route'],
  description: 'No audio here: send the same body to `route`, the blocking continue.',
  properties: {
    status: { const: 'use_blocking_route' },
    message: text,
    route: text,
    conversation_id: text,
  },
} as const;

export const acknowledgeResponseSchema = {
  type: 'object',
  required: ['text'],
  properties: { text: { type: 'string', minLength: 1, description: 'What the node says now.' } },
} as const;

export const wakeResponseSchema = {
  type: 'object',
  required: ['text'],
  properties: {
    text: { type: 'string', minLength: 1, description: 'What the node says on its wake word.' },
  },
} as const;

export type ErrorResponse = SchemaType<typeof errorResponseSchema>;
export type ConversationStartResponse = SchemaType<typeof conversationStartResponseSchema>;
export type VoiceCommandResponse = SchemaType<typeof voiceCommandResponseSchema>;
export type StreamFallbackResponse = SchemaType<typeof streamFallbackResponseSchema>;
export type AcknowledgeResponse = SchemaType<typeof acknowledgeResponseSchema>;
export type WakeResponse = SchemaType<typeof wakeResponseSchema>;
