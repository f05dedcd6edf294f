import {
  identifier,
  LIMITS,
  optionalBoolean,
  optionalText,
  speakerUserId,
  text,
} from './request-schemas';

// The body of conversation/start, the only one with command definitions: its own module, so only
// the conversation-start bundle (and the OpenAPI document) holds it (request-schemas.ts says why).

const textList = { type: ['array', 'null'], maxItems: LIMITS.listItems, items: text() } as const;

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
