import type { ToolDefinition } from '../../chat/chat-message';
import type { ParameterType } from '../types/parameter-type';

export interface CommandExample {
  readonly voiceCommand: string;
  readonly expectedParameters: Readonly<Record<string, unknown>>;
  readonly isPrimary: boolean;
}

/** "Not this tool for that: use `commandName`". */
export interface Antipattern {
  readonly commandName: string;
  readonly description: string;
}

export interface ParameterSpec {
  readonly name: string;
  /** null: only a client JSON Schema that maps to no simple type; validated by the schema alone. */
  readonly type: ParameterType | null;
  readonly required: boolean;
  readonly description: string | null;
  /** Compared as strings (`String(value)`), item by item for arrays. */
  readonly enumValues: readonly string[] | null;
  /** undefined when there is none. */
  readonly defaultValue: unknown;
  readonly refinable: boolean;
  /** The property's JSON Schema as the model sees it. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/** One tool of a node: its typed command and its client tool merged under one name. */
export interface CommandSpec {
  readonly name: string;
  readonly description: string;
  /** Typed parameters in declared order, then properties only the client schema names. */
  readonly parameters: readonly ParameterSpec[];
  readonly rules: readonly string[];
  readonly criticalRules: readonly string[];
  readonly examples: readonly CommandExample[];
  readonly antipatterns: readonly Antipattern[];
  readonly keywords: readonly string[];
  readonly allowDirectAnswer: boolean | null;
  /**
   * Parameters no side declares are accepted: a client tool alone without `additionalProperties:
   * false` (JSON Schema's default), or a client schema saying so explicitly for a typed command.
   */
  readonly allowsExtraParameters: boolean;
  readonly tool: ToolDefinition;
}

/** What a conversation/start body holds (shape-checked at the edge; read defensively anyway). */
export interface CommandSetSource {
  readonly available_commands?: readonly unknown[];
  readonly client_tools?: readonly unknown[];
}

export type CommandSetIssueCode =
  | 'unknown_type'
  | 'duplicate_name'
  | 'invalid_tool_name'
  | 'schema_does_not_compile'
  | 'type_conflict'
  | 'reserved_name'
  | 'invalid_definition'
  /** A documented limit of SCHEMA_LIMITS (size, depth, $ref, branches, enum, pattern). */
  | 'schema_limit_exceeded';

/** One problem of a registration; `command` is the tool name, or `available_commands[3]` without one. */
export interface CommandSetIssue {
  readonly code: CommandSetIssueCode;
  readonly command: string;
  readonly parameter: string | null;
  readonly message: string;
}

export interface CompileOptions {
  /** Names of the server's own tools: a node tool may not take one. */
  readonly reservedNames?: readonly string[];
}
