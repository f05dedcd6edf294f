import type { RecordedResponse } from '../../ports/conversation-store';
import { failure, type Result, success } from '../../result';

/**
 * The recorded responses checked back from their stored JSON. The adapter wrote it, so a mismatch
 * means a bug or a layout change; the issue names the first bad entry.
 */
export function parseStoredResponses(value: unknown): Result<RecordedResponse[], string> {
  if (!Array.isArray(value)) return failure(['is not an array']);
  const responses: RecordedResponse[] = [];
  for (const [index, entry] of value.entries()) {
    if (
      typeof entry !== 'object' ||
      entry === null ||
      typeof entry.requestId !== 'string' ||
      typeof entry.fingerprint !== 'string' ||
      typeof entry.outcome !== 'string' ||
      typeof entry.recordedAt !== 'number' ||
      (entry.conversationVersion !== undefined && typeof entry.conversationVersion !== 'number')
    ) {
      return failure([`entry ${index} is not a recorded response`]);
    }
    const { requestId, fingerprint, outcome, recordedAt, conversationVersion } = entry;
    responses.push({
      requestId,
      fingerprint,
      outcome,
      recordedAt,
      ...(conversationVersion === undefined ? {} : { conversationVersion }),
    });
  }
  return success(responses);
}
