import { CHAT_LIMITS } from '../../shared/conversation/chat/chat-limits';
import { MAX_PENDING_CALLS } from '../../shared/conversation/turn/call-limits';

/**
 * The JSON Schemas of the request bodies: the one place the edge validates with, the OpenAPI
 * document is built from and the routes' body types are derived from (`jsonBody`, `SchemaType`).
 * Unknown extra fields are accepted (nodes send more than api.md lists); every known field is
 * checked. Limits bound the work a single request can cause.
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

const text = (maxLength: number = LIMITS.textCharacters) =>
  ({ type: 'string', maxLength }) as const;
const optionalText = { type: ['string', 'null'], maxLength: LIMITS.textCharacters } as const;
const optionalBoolean = { type: ['boolean', 'null'] } as const;
const textList = { type: ['array', 'null'], maxItems: LIMITS.listItems, items: text() } as const;
/** Ids are printable ASCII without spaces (the JSON Schema `pattern` of every id). */
export const ID_PATTERN = '^[\\x21-\\x7E]+$';

const identifier = {
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

const commandParameter = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    name: text(64),
    type: text(64),
    required: optionalBoolean,
    description: optionalText,
    enum_values: { type: ['array', 'null'], maxItems: LIMITS.listItems, items: text(256) },
    refinable: optionalBoolean,
  },
} as const;

const commandDefinition = {
  type: 'object',
  required: ['command_name'],
  properties: {
    command_name: text(64),
    description: optionalText,
    parameters: {
      type: ['array', 'null'],
      maxItems: LIMITS.parametersPerCommand,
      items: commandParameter,
    },
    rules: textList,
    critical_rules: textList,
    keywords: textList,
    examples: {
      type: ['array', 'null'],
      maxItems: LIMITS.listItems,
      items: {
        type: 'object',
        required: ['voice_command'],
        properties: {
          voice_command: text(),
          expected_parameters: { type: ['object', 'null'] },
          is_primary: optionalBoolean,
        },
      },
    },
    antipatterns: {
      type: ['array', 'null'],
      maxItems: LIMITS.listItems,
      items: {
        type: 'object',
        required: ['command_name'],
        properties: { command_name: text(64), description: optionalText },
      },
    },
    allow_direct_answer: optionalBoolean,
  },
} as const;

const clientTool = {
  type: 'object',
  required: ['type', 'function'],
  properties: {
    type: { const: 'function' },
    function: {
      type: 'object',
      required: ['name'],
      properties: {
        name: text(64),
        description: optionalText,
        parameters: { type: 'object' },
      },
    },
    allow_direct_answer: optionalBoolean,
  },
} as const;

/** An opaque id of the speaker the node's voice recognition named. */
const speakerUserId = {
  type: ['integer', 'null'],
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description:
    'Optional. The speaker the node recognized; the model reads it as "speaker: user <id>", ' +
    'nothing more.',
} as const;

export const conversationStartRequestSchema = {
  $id: 'ConversationStartRequest',
  type: 'object',
  required: ['conversation_id'],
  properties: {
    conversation_id: identifier,
    node_context: {
      type: ['object', 'null'],
      properties: {
        timezone: { type: ['string', 'null'], maxLength: 64 },
        speaker_user_id: speakerUserId,
        agents: {
          type: ['object', 'null'],
          description:
            "Optional. What the node's agents know, by agent name: " +
            '`home_assistant.device_controls` is the device list the model reads and `entity_id` ' +
            'arguments are checked against; other agents are summarized as data. A large home is ' +
            'cut to the limits (README), never refused.',
        },
      },
    },
    available_commands: {
      type: ['array', 'null'],
      maxItems: LIMITS.commands,
      items: commandDefinition,
    },
    client_tools: { type: ['array', 'null'], maxItems: LIMITS.commands, items: clientTool },
    skip_warmup_inference: {
      ...optionalBoolean,
      description:
        'true: do not warm the model for this conversation, unless the API has not warmed it ' +
        'with these commands in the last 5 minutes (docs/decisions/2026-11-24-default-node-warm-up.md). ' +
        'Default: warm it. Either way, commands warmed in the last 5 minutes are not warmed again.',
    },
  },
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
