import { timingSafeEqual } from 'node:crypto';
import { hashNodeKey } from '../../shared/adapters/node-key';
import type { Clock } from '../../shared/ports/clock';
import type { NodeRecord, NodeRegistry } from '../../shared/ports/node-registry';
import { HttpError } from './http-error';
import type { AuthenticatedNode } from './route-request';

export interface AuthenticatorOptions {
  /** How long a found node is trusted without asking the registry again. */
  readonly foundTtlMs?: number;
  /** How long "no such node" is remembered: short, so a node registered just now gets in soon. */
  readonly missingTtlMs?: number;
  readonly maxEntries?: number;
}

const UNAUTHORIZED = () =>
  new HttpError(
    401,
    'unauthorized',
    'Send X-API-Key: <node_id>:<node_key> of a registered, enabled node.',
  );

/**
 * Checks `X-API-Key: <node_id>:<node_key>` against the registry. Registry answers are cached per
 * container; the key itself is hashed and compared in constant time on every request, and never
 * stored, logged or echoed.
 */
export class NodeAuthenticator {
  private readonly cache = new Map<string, { node: NodeRecord | null; expiresAt: number }>();
  private readonly foundTtlMs: number;
  private readonly missingTtlMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly registry: NodeRegistry,
    private readonly clock: Clock,
    options: AuthenticatorOptions = {},
  ) {
    this.foundTtlMs = options.foundTtlMs ?? 60_000;
    this.missingTtlMs = options.missingTtlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 1_000;
  }

  async authenticate(header: string | undefined): Promise<AuthenticatedNode> {
    const separator = header?.indexOf(':') ?? -1;
    if (header === undefined || separator <= 0 || separator === header.length - 1)
      throw UNAUTHORIZED();
    const nodeId = header.slice(0, separator).trim();
    const key = header.slice(separator + 1).trim();
    if (nodeId === '' || key === '' || nodeId.length > 128 || key.length > 512)
      throw UNAUTHORIZED();

    const node = await this.find(nodeId);
    const presented = Buffer.from(hashNodeKey(key), 'hex');
    const expected = Buffer.from(node?.keyHash ?? '', 'hex');
    const matches = expected.length === presented.length && timingSafeEqual(expected, presented);
    if (node === null || !node.enabled || !matches) throw UNAUTHORIZED();
    return { nodeId: node.nodeId, timezone: node.timezone, room: node.room };
  }

  private async find(nodeId: string): Promise<NodeRecord | null> {
    const now = this.clock.now();
    const cached = this.cache.get(nodeId);
    if (cached !== undefined && cached.expiresAt > now) return cached.node;
    const node = await this.registry.find(nodeId);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(nodeId, {
      node,
      expiresAt: now + (node === null ? this.missingTtlMs : this.foundTtlMs),
    });
    return node;
  }
}
