import type { SchemaType } from './schema-type';

/** OpenAI's chat completion body, one choice, as routines and alerts read it. */
export const chatCompletionSchema = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices', 'usage'],
  properties: {
    id: { type: 'string' },
    object: { const: 'chat.completion' },
    created: { type: 'integer', description: 'Unix seconds.' },
    model: { type: 'string', description: 'The configured model (LLM_MODEL).' },
    choices: {
      type: 'array',
      minItems: 1,
      maxItems: 1,
      items: {
        type: 'object',
        required: ['index', 'message', 'finish_reason'],
        properties: {
          index: { const: 0 },
          message: {
            type: 'object',
            required: ['role', 'content'],
            properties: {
              role: { const: 'assistant' },
              content: {
                type: 'string',
                description: 'The answer, without the model’s <think> blocks.',
              },
            },
          },
          finish_reason: {
            type: ['string', 'null'],
            description: 'As the model server sent it: `stop`, or `length` for a reply cut off.',
          },
        },
      },
    },
    usage: {
      description: 'Tokens of the call, as the model server reported them (null when it did not).',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
          properties: {
            prompt_tokens: { type: 'integer', minimum: 0 },
            completion_tokens: { type: 'integer', minimum: 0 },
            total_tokens: { type: 'integer', minimum: 0 },
          },
        },
      ],
    },
  },
} as const;

export type ChatCompletion = SchemaType<typeof chatCompletionSchema>;
