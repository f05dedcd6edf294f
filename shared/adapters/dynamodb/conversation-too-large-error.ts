/**
 * The conversation item would exceed `MAX_CONVERSATION_ITEM_BYTES`. Refused before writing, so
 * DynamoDB's own 400 KB limit is never the one that fails and nothing is half written.
 */
export class ConversationTooLargeError extends Error {
  override readonly name = 'ConversationTooLargeError';
  constructor(
    readonly nodeId: string,
    readonly conversationId: string,
    readonly sizeBytes: number,
    readonly limitBytes: number,
  ) {
    super(
      `conversation ${conversationId} would be stored as ${sizeBytes} bytes, over the ${limitBytes}-byte cap`,
    );
  }
}
