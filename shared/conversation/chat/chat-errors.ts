/** The chat messages together are longer than the route takes: refused before the model is asked. */
export class ChatTooLargeError extends Error {
  override readonly name = 'ChatTooLargeError';
  constructor(
    readonly characters: number,
    readonly limitCharacters: number,
  ) {
    super(
      `the messages hold ${characters} characters together; at most ${limitCharacters} are taken`,
    );
  }
}

/** The node asked for more tokens than the server's `max_tokens` setting allows. */
export class ChatMaxTokensError extends Error {
  override readonly name = 'ChatMaxTokensError';
  constructor(
    readonly requested: number,
    readonly limit: number,
  ) {
    super(
      `max_tokens ${requested} is above this server's limit of ${limit} (MODEL_MAX_TOKENS); ask for fewer or leave it out`,
    );
  }
}
