/**
 * The entity ids a node reported (its device list), indexed for the check of a call's
 * `entity_id`: exact ids, and each id by its loose key (case and punctuation ignored) when no
 * other id shares that key.
 */
export interface KnownEntities {
  readonly ids: readonly string[];
  readonly exact: ReadonlySet<string>;
  /** Loose key -> the one id with that key; null when two ids share it (no repair then). */
  readonly byLooseKey: ReadonlyMap<string, string | null>;
  /** false when the node reported devices that are not in `ids`: an unknown id may still exist. */
  readonly complete: boolean;
}

/** `Light.Office-Lamp` and `light.office_lamp` alike: lower case, letters and digits only. */
export function looseEntityKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The index of `ids`, built once per conversation turn (the list is bounded at start). */
export function knownEntities(ids: readonly string[], complete: boolean): KnownEntities {
  const byLooseKey = new Map<string, string | null>();
  for (const id of ids) {
    const key = looseEntityKey(id);
    const seen = byLooseKey.get(key);
    byLooseKey.set(key, seen === undefined || seen === id ? id : null);
  }
  return { ids, exact: new Set(ids), byLooseKey, complete };
}
