/** A registered voice node. The key itself is never stored, only its SHA-256. */
export interface NodeRecord {
  readonly nodeId: string;
  /** Lowercase hex SHA-256 of the node key. */
  readonly keyHash: string;
  /** IANA zone; wins over the zone a request claims. */
  readonly timezone: string | null;
  readonly room: string | null;
  readonly name: string | null;
  readonly enabled: boolean;
}

export interface NodeRegistry {
  find(nodeId: string): Promise<NodeRecord | null>;
  /** Creates or replaces the node. */
  put(node: NodeRecord): Promise<void>;
}
