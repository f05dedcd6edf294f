/**
 * The repairs `parseJsonLenient` may apply, each one unambiguous: the repaired text can only have
 * meant one JSON value. Anything else (a value cut in half, a missing comma, an unquoted string
 * value) is refused so the model is asked again rather than guessed at.
 */
export const JsonRepair = {
  /** Containers left open after a complete value (`{"city": "LA"`) are closed. */
  closedTruncated: 'closed_truncated',
  /** `[1, 2,]` and `{"a": 1,}`. */
  trailingComma: 'trailing_comma',
  /** `'text'` strings and keys (Python `repr` style). */
  singleQuotes: 'single_quotes',
  /** `{city: "LA"}`: keys written as bare identifiers. */
  unquotedKeys: 'unquoted_keys',
  /** `True`, `False`, `None` outside strings become `true`, `false`, `null`. */
  pythonLiterals: 'python_literals',
  /** A raw tab or line break inside a string, which JSON requires escaped. */
  rawControlCharacters: 'raw_control_characters',
} as const;
export type JsonRepair = (typeof JsonRepair)[keyof typeof JsonRepair];
