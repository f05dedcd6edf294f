/** Arguments of one tool call: the parsed value, or why the raw text could not be parsed. */
export type ParsedArguments =
  | {
      readonly ok: true;
      readonly value: unknown;
      /** Names of the JSON repairs applied (see `JsonRepair`); empty for valid JSON. */
      readonly repaired: readonly string[];
    }
  | {
      readonly ok: false;
      readonly raw: string;
      readonly reason: string;
      /** Not read at all: the text was over REPLY_LIMITS.argumentsBytes (`raw` is then empty). */
      readonly tooLarge?: boolean;
    };

export interface ExtractedToolCall {
  /** From the model, or assigned with `ids.next('call_')` when missing, empty or a duplicate. */
  readonly id: string;
  readonly name: string;
  /** `native`: the API's `tool_calls`; `text`: markup or JSON written into the content. */
  readonly source: 'native' | 'text';
  /** Parsed arguments, or why they could not be parsed. */
  readonly arguments: ParsedArguments;
}

export interface ExtractedReply {
  /** Text for the user: think blocks and tool-call markup removed, trimmed; null when empty. */
  readonly text: string | null;
  /** The calls read: at most the `maxCalls` the caller asked for, in the order written. */
  readonly toolCalls: readonly ExtractedToolCall[];
  /**
   * Calls found past `maxCalls`: their markup is removed from the text, but they are not read,
   * named or given an id (drawing thousands of ids would cost more than the scan itself).
   */
  readonly unread: number;
}
