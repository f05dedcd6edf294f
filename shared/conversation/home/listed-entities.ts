import { type KnownEntities, knownEntities } from '../../params';
import type { HomeContext } from '../../ports/conversation-store';

/**
 * The entity ids a stored home lets through, as the turn checks calls against them and reads the
 * response for the node; null when the node listed no device (nothing is checked).
 */
export function listedEntities(home: HomeContext | null): KnownEntities | null {
  if (home === null || home.entityIds.length === 0) return null;
  return knownEntities(home.entityIds, home.entityIdsComplete);
}
