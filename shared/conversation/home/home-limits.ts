/**
 * The bounds of what a conversation takes from the node's `agents` (README, "Node context").
 * A large home is cut to these, never refused: the start succeeds whatever the node reports.
 */
export const HOME_LIMITS = {
  /**
   * Devices read from `device_controls`, in the node's order; the rest are not looked at. More
   * than a 256 KiB body can carry, so the node's room is always found: a bound on the work.
   */
  devicesRead: 4_000,
  /** Characters of the device lines in the prompt (about 60 devices of a typical home). */
  deviceListCharacters: 4_000,
  /** Characters of a name, an area and a state as the model reads them (cut with `…`). */
  nameCharacters: 60,
  areaCharacters: 40,
  stateCharacters: 24,
  /** Characters of the other agents' summary, and how much of each agent it shows. */
  otherAgentsCharacters: 600,
  otherAgents: 8,
  fieldsPerAgent: 8,
  valueCharacters: 80,
  /** UTF-8 bytes of the entity ids kept to check calls against (about 700 ids). */
  entityIdBytes: 16 * 1024,
  /** UTF-8 bytes of the whole home context as stored with the conversation. */
  storedBytes: 24 * 1024,
} as const;

/** An entity id as Home Assistant writes it (`light.office`); others are left out of the list. */
export const ENTITY_ID_PATTERN = /^[A-Za-z0-9_]{1,32}\.[A-Za-z0-9_-]{1,95}$/;
