import { ENTITY_DOMAINS, looseEntityKey } from './entity-id-shape';

/**
 * The entity ids a node reported (its device list), indexed for the check of a call's entity
 * ids: exact ids, each id by its loose key (case and punctuation ignored) when no other id shares
 * that key, and the domains a string must have to be taken for an id outside `entity_id`.
 */
export interface KnownEntities {
  readonly ids: readonly string[];
  readonly exact: ReadonlySet<string>;
  /** Loose key -> the one id with that key; null when two ids share it (no repair then). */
  readonly byLooseKey: ReadonlyMap<string, string | null>;
  /** Home Assistant's domains and those of `ids`, in lower case. */
  readonly domains: ReadonlySet<string>;
  /** false when the node reported devices that are not in `ids`: an unknown id may still exist. */
  readonly complete: boolean;
}

/** The index of `ids`, built once per conversation turn (the list is bounded at start). */
export function knownEntities(ids: readonly string[], complete: boolean): KnownEntities {
  const byLooseKey = new Map<string, string | null>();
  const domains = new Set(ENTITY_DOMAINS);
  for (const id of ids) {
    const key = looseEntityKey(id);
    const seen = byLooseKey.get(key);
    byLooseKey.set(key, seen === undefined || seen === id ? id : null);
    const dot = id.indexOf('.');
    if (dot > 0) domains.add(id.slice(0, dot).toLowerCase());
  }
  return { ids, exact: new Set(ids), byLooseKey, domains, complete };
}
