/**
 * The conversation history in our own terms. It mirrors the OpenAI Chat Completions message
 * shapes closely enough to translate one to one, but belongs to the core: no SDK types leak in.
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Always a JSON string, as the OpenAI API and the wire contract carry it. */
  readonly arguments: string;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly toolCalls: readonly ToolCall[];
    }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A tool as the OpenAI API declares it: `{type: "function", function: {...}}`. */
export interface ToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Readonly<Record<string, unknown>>;
    /** OpenAI structured outputs: the model can only produce arguments valid for `parameters`. */
    readonly strict?: boolean;
  };
}
