/**
 * The function table: the Lambda functions of the API, each with what it may do (call the model,
 * stream, speak, hear). The route table (api-routes.ts) names which function serves each route;
 * why the functions are cut this way: docs/decisions/2026-11-23-node-routes.md.
 */

/** One Lambda function of the API. */
export interface ApiFunction {
  /** Construct id and stem of the function's stable CloudFormation logical id. */
  readonly id: string;
  /** Kebab-case name, for logs and benchmark rows. */
  readonly name: string;
  /** Handler entry relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  /** Whether it may call the model (and so needs the model's key). */
  readonly callsModel: boolean;
  /**
   * Whether its routes answer through Lambda response streaming (API Gateway's `STREAM`
   * transfer mode): every route of such a function is integrated that way.
   */
  readonly streams: boolean;
  /** Whether it synthesizes speech (and so needs the speech-out settings and Polly). */
  readonly speaks: boolean;
  /** Whether it transcribes speech (and so needs the speech-in settings and their key). */
  readonly hears: boolean;
}

/**
 * What a function needs wired, as its entry says: the model, speech in, speech out. The wiring
 * builds only these (functions/wiring/function-wiring.ts), the stack gives its environment and
 * role only their settings and rights (infra/stacks/function-environment.ts, stateless-stack.ts).
 */
export type FunctionNeeds = Pick<ApiFunction, 'callsModel' | 'hears' | 'speaks'>;

export const apiFunctions = {
  conversationStart: {
    id: 'ConversationStart',
    name: 'conversation-start',
    entry: 'functions/conversation-start.ts',
    description: 'Registers a node conversation and compiles its commands',
    callsModel: true,
    streams: false,
    speaks: false,
    hears: false,
  },
  voiceCommand: {
    id: 'VoiceCommand',
    name: 'voice-command',
    entry: 'functions/voice-command.ts',
    description: 'Turns an utterance into validated tool calls',
    callsModel: true,
    streams: false,
    speaks: false,
    hears: false,
  },
  voiceCommandContinue: {
    id: 'VoiceCommandContinue',
    name: 'voice-command-continue',
    entry: 'functions/voice-command-continue.ts',
    description: 'Continues a turn with the tool results of the node',
    callsModel: true,
    streams: false,
    speaks: false,
    hears: false,
  },
  voiceStream: {
    id: 'VoiceStream',
    name: 'voice-stream',
    entry: 'functions/voice-stream.ts',
    description: 'The stream routes of a turn: the spoken answer as streamed PCM, or the JSON',
    callsModel: true,
    streams: true,
    speaks: true,
    hears: false,
  },
  speech: {
    id: 'Speech',
    name: 'speech',
    entry: 'functions/speech.ts',
    description: 'Speech in (a WAV recording to text) and speech out (text to WAV or streamed PCM)',
    callsModel: false,
    streams: true,
    speaks: true,
    hears: true,
  },
  nodeHelpers: {
    id: 'NodeHelpers',
    name: 'node-helpers',
    entry: 'functions/node-helpers.ts',
    description:
      'Acknowledgements, wake greetings and date context for nodes: no model, no command set',
    callsModel: false,
    streams: false,
    speaks: false,
    hears: false,
  },
  chat: {
    id: 'Chat',
    name: 'chat',
    entry: 'functions/chat.ts',
    description: 'The node’s own messages to the model, without tools (routines and alerts)',
    callsModel: true,
    streams: false,
    speaks: false,
    hears: false,
  },
} as const satisfies Record<string, ApiFunction>;
