import { CHAT_LIMITS } from '../../../shared/conversation/chat/chat-limits';

/**
 * What routines and alerts send to `chat` (OpenAI's message shape, text only). The characters of
 * all messages together and a `max_tokens` above the server's setting are checked after the
 * schema (shared/conversation/chat), as a schema cannot say them.
 */
export const chatRequestSchema = {
  $id: 'ChatRequest',
  type: 'object',
  required: ['messages'],
  properties: {
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: CHAT_LIMITS.messages,
      items: {
        type: 'object',
        required: ['role', 'content'],
        properties: {
          role: { enum: ['system', 'user', 'assistant'] },
          content: { type: 'string', maxLength: CHAT_LIMITS.messageCharacters },
        },
      },
      description: `At most ${CHAT_LIMITS.messages} messages of ${CHAT_LIMITS.messageCharacters} characters, ${CHAT_LIMITS.totalCharacters} together (more: a 413).`,
    },
    max_tokens: {
      type: ['integer', 'null'],
      minimum: 1,
      description:
        'Optional: at most the server’s MODEL_MAX_TOKENS (1024 by default; above it, a 400). Default: that setting.',
    },
  },
} as const;
