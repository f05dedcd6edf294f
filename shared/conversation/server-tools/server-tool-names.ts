/** Tools the server runs itself; a node may not declare a tool with one of these names. */
export const ServerToolName = {
  resolveRelativeDate: 'resolve_relative_date',
  getCommandUtteranceExamples: 'get_command_utterance_examples',
  requestValidation: 'request_validation',
} as const;
export type ServerToolName = (typeof ServerToolName)[keyof typeof ServerToolName];

export const SERVER_TOOL_NAMES: readonly string[] = Object.values(ServerToolName);

export const isServerToolName = (name: string): name is ServerToolName =>
  SERVER_TOOL_NAMES.includes(name);
