import type { $Command, ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/client-dynamodb';

/** One of the SDK's DynamoDB commands (`GetItemCommand`, …): its input and the output it gives. */
export type DynamoDbCommand<
  Input extends ServiceInputTypes,
  Output extends ServiceOutputTypes,
> = $Command<
  Input,
  Output,
  // biome-ignore lint/suspicious/noExplicitAny: the SDK types a command's resolved config so.
  any,
  ServiceInputTypes,
  ServiceOutputTypes
>;

export interface SendOptions {
  /** Aborts the request in flight and any wait before a retry (`AbortError`). */
  readonly abortSignal?: AbortSignal;
}

/**
 * What the stores use of a DynamoDB client: the SDK's `send` of a command, with the SDK's output
 * and exception classes, and `destroy`. Both the SDK's `DynamoDBClient` and `JsonDynamoDbClient`
 * are one.
 */
export interface DynamoDbClient {
  send<Input extends ServiceInputTypes, Output extends ServiceOutputTypes>(
    command: DynamoDbCommand<Input, Output>,
    options?: SendOptions,
  ): Promise<Output>;
  destroy(): void;
}

/** Told of each attempt at a request (a retry is one more): the tests count round trips so. */
export type AttemptObserver = (operation: string, input: Readonly<Record<string, unknown>>) => void;
