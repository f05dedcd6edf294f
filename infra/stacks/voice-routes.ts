import { fileURLToPath } from 'node:url';

/** The repository root, found from this file so synth and bench work from any working directory. */
export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/** One HTTP route of the voice API and the handler entry that serves it. */
export interface VoiceRoute {
  /** Construct id and stem of the function's stable CloudFormation logical id. */
  readonly id: string;
  /** Kebab-case name used for sample events and benchmark rows. */
  readonly name: string;
  /** Resource path under the stage; every route accepts POST only. */
  readonly path: string;
  /** Handler entry relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
}

export const voiceRoutes: readonly VoiceRoute[] = [
  {
    id: 'ConversationStart',
    name: 'conversation-start',
    path: '/api/v0/conversation/start',
    entry: 'functions/conversation-start.ts',
    description: 'Registers a node conversation and compiles its commands',
  },
  {
    id: 'VoiceCommand',
    name: 'voice-command',
    path: '/api/v0/voice/command',
    entry: 'functions/voice-command.ts',
    description: 'Turns an utterance into validated tool calls',
  },
  {
    id: 'VoiceCommandContinue',
    name: 'voice-command-continue',
    path: '/api/v0/voice/command/continue',
    entry: 'functions/voice-command-continue.ts',
    description: 'Continues a turn with the tool results of the node',
  },
];

/**
 * The logical id every function keeps in the template, whatever the construct tree becomes, so the
 * `sam local invoke <id>` commands in docs/deploy.md stay true.
 */
export function functionLogicalId(route: VoiceRoute): string {
  return `${route.id}Function`;
}
