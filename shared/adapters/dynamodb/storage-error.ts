import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { StorageUnavailableError } from '../../ports/conversation-store';

/**
 * Errors that mean our request was wrong (a bug), not that the database failed us: they keep
 * their own type so they surface as a 500 with the real cause instead of a retryable 503.
 */
const REQUEST_BUG_ERRORS = new Set(['ValidationException', 'SerializationException']);

/**
 * Turns a failed DynamoDB call into `StorageUnavailableError` (connection refused, timeouts,
 * throttling, 5xx, missing table or permissions), keeping the original as `cause`. Validation
 * errors are bugs and are returned unchanged. Callers handle `ConditionalCheckFailedException`
 * before calling this.
 */
export function toStorageError(error: unknown, operation: string): unknown {
  if (error instanceof DynamoDBServiceException && REQUEST_BUG_ERRORS.has(error.name)) {
    return error;
  }
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new StorageUnavailableError(`DynamoDB ${operation} failed: ${reason}`, { cause: error });
}
