/**
 * A stored item does not have the layout this code writes: a bug or a manual edit, never an
 * expected state. Thrown rather than guessed around, so the damage is visible.
 */
export class StoredItemMalformedError extends Error {
  override readonly name = 'StoredItemMalformedError';
  constructor(
    readonly partitionKey: string,
    readonly sortKey: string,
    readonly attribute: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`stored item ${partitionKey} / ${sortKey}: attribute ${attribute} ${reason}`, options);
  }
}
