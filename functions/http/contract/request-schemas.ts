import { MAX_PENDING_CALLS } from '../../../shared/conversation/turn/call-limits';

/**
 * The JSON Schemas of the request bodies: the one place the edge validates with, the OpenAPI
 * document is built from and the routes' body types are derived from (`jsonBody`, `SchemaType`).
 * Unknown extra fields are accepted (nodes send more than api.md lists); every known field is
 * checked. Limits bound the work a single request can cause. The schemas of one function only
 * (conversation-start-request-schema.ts, chat-request-schema.ts) live in their own module: esbuild
 * keeps a top-level schema built with a spread or a call even when unused, so every bundle held them.
 */
export const LIMITS = {
  bodyBytes: 256 * 1024,
  commands: 64,
  parametersPerCommand: 32,
  textCharacters: 4_000,
  listItems: 100,
  utteranceCharacters: 2_000,
  /** A node answers every pending call at once; the engine never leaves more pending. */
  toolResults: MAX_PENDING_CALLS,
  idCharacters: 128,
} as const;

export const text = (maxLength: number = LIMITS.textCharacters) =>
  ({ type: 'string', maxLength }) as const;
export const optionalText = { type: ['string', 'null'], maxLength: LIMITS.textCharacters } as const;
export const optionalBoolean = { type: ['boolean', 'null'] } as const;
/** Ids are printable ASCII without spaces (the JSON Schema `pattern` of every id). */
export const ID_PATTERN = '^[\\x21-\\x7E]+$';

export const identifier = {
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.idCharacters,
  pattern: ID_PATTERN,
  description: 'Printable ASCII without spaces, at most 128 characters.',
} as const;
const requestId = {
  ...identifier,
  type: ['string', 'null'],
  description:
    'Optional. A repeat with the same id and body gets the recorded response without a new model ' +
    'call; the same id with another body is a 422. Scoped to the conversation. The ' +
    '`Idempotency-Key` header is an alternative.',
} as const;

/** An opaque id of the speaker the node's voice recognition named. */
export const speakerUserId = {
  type: ['integer', 'null'],
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description:
    'Optional. The speaker the node recognized; the model reads it as "speaker: user <id>", ' +
    'nothing more.',
} as const;

export const voiceCommandRequestSchema = {
  $id: 'VoiceCommandRequest',
  type: 'object',
  required: ['voice_command', 'conversation_id'],
  properties: {
    voice_command: { type: 'string', minLength: 1, maxLength: LIMITS.utteranceCharacters },
    conversation_id: identifier,
    request_id: requestId,
    speaker_user_id: speakerUserId,
  },
} as const;

export const continueRequestSchema = {
  $id: 'VoiceCommandContinueRequest',
  type: 'object',
  required: ['conversation_id', 'tool_results'],
  properties: {
    conversation_id: identifier,
    tool_results: {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.toolResults,
      items: {
        type: 'object',
        required: ['tool_call_id'],
        properties: { tool_call_id: identifier, output: {} },
      },
    },
    request_id: requestId,
  },
} as const;

export const acknowledgeRequestSchema = {
  $id: 'AcknowledgeRequest',
  type: 'object',
  required: ['voice_command'],
  properties: {
    voice_command: { type: 'string', minLength: 1, maxLength: LIMITS.utteranceCharacters },
  },
} as const;
