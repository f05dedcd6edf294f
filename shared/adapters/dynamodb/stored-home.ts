import type { HomeContext } from '../../ports/conversation-store';
import { failure, type Result, success } from '../../result';

/**
 * The home context checked back from its stored JSON. The adapter wrote it, so a mismatch means
 * a bug or a layout change.
 */
export function parseStoredHome(value: unknown): Result<HomeContext, string> {
  if (typeof value !== 'object' || value === null) return failure(['is not an object']);
  const { prompt, entityIds, entityIdsComplete } = value as Record<string, unknown>;
  if (typeof prompt !== 'string') return failure(['has no prompt text']);
  if (!Array.isArray(entityIds) || !entityIds.every((id) => typeof id === 'string')) {
    return failure(['has no list of entity ids']);
  }
  if (typeof entityIdsComplete !== 'boolean') return failure(['does not say if it is complete']);
  return success({ prompt, entityIds, entityIdsComplete });
}
