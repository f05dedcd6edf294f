import { AUTHENTICATOR_DEFAULTS } from '../../../functions/http/edge/node-authenticator';
import type { NodeRegistry } from '../../../shared/ports/node-registry';
import { failure, type Result, success } from '../../../shared/result';

/** How long a warm function keeps trusting the node record it read: the old key's last window. */
const rotationWindowSeconds = AUTHENTICATOR_DEFAULTS.cacheTtlMs / 1000;

export interface NodeRegistration {
  readonly nodeId: string;
  /** Null keeps the zone (or room) a rotated node had; a new node then has none. */
  readonly timezone: string | null;
  readonly room: string | null;
  /** Replace the key of a node that exists; without it an existing node is left alone. */
  readonly rotate: boolean;
}

export interface Registered {
  /** True when an existing node's key was replaced. */
  readonly rotated: boolean;
  readonly enabled: boolean;
}

/**
 * Registers the node under `keyHash`. An existing node is never replaced silently: without
 * `rotate` this fails and the old key keeps working; with it, the key changes and the node keeps
 * its zone, room, name and enabled flag unless new ones are given.
 */
export async function registerNode(
  registry: NodeRegistry,
  registration: NodeRegistration,
  keyHash: string,
): Promise<Result<Registered, string>> {
  const existing = await registry.find(registration.nodeId);
  if (existing !== null && !registration.rotate) {
    return failure([
      `node ${registration.nodeId} is already registered; its key is unchanged. To replace the ` +
        `key, run again with --rotate (the old key stops working within ${rotationWindowSeconds} s).`,
    ]);
  }
  const enabled = existing?.enabled ?? true;
  await registry.put({
    nodeId: registration.nodeId,
    keyHash,
    timezone: registration.timezone ?? existing?.timezone ?? null,
    room: registration.room ?? existing?.room ?? null,
    name: existing?.name ?? registration.nodeId,
    enabled,
  });
  return success({ rotated: existing !== null, enabled });
}
