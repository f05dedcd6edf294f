import { timingSafeEqual } from 'node:crypto';
import { hashNodeKey } from '../../../shared/adapters/node-key';
import { LruMap } from '../../../shared/adapters/system/lru-map';
import { systemTiming, type Timing } from '../../../shared/adapters/system/timing';
import type { CallingNode } from '../../../shared/conversation';
import type { Clock } from '../../../shared/ports/clock';
import type { NodeRecord, NodeRegistry } from '../../../shared/ports/node-registry';
import { HttpError } from '../errors/http-error';

export interface AuthenticatorOptions {
  /**
   * How long a registry answer is trusted, found or not: a node disabled or registered just now
   * is seen within this time.
   */
  readonly cacheTtlMs?: number;
  /** Registry answers kept, least recently used first out: a flood of bogus ids evicts only itself. */
  readonly maxEntries?: number;
  /**
   * A refused key is answered no sooner than this after the check began, whatever the refusal
   * cost: a cached known node and an unknown one (a registry read) then take the same time, so
   * timing does not tell which node ids exist. Only failures wait; 0 turns it off.
   */
  readonly rejectionFloorMs?: number;
  /** The clock that measures a refusal and the wait up to the floor; the system's by default. */
  readonly timing?: Pick<Timing, 'monotonic' | 'sleep'>;
}

/** The defaults: the disabled-node window (10 s) and the floor above a registry read's p99. */
export const AUTHENTICATOR_DEFAULTS = {
  cacheTtlMs: 10_000,
  maxEntries: 1_000,
  rejectionFloorMs: 25,
} as const;

/** The refusal of a key, whoever checked it. */
export const unauthorized = (): HttpError =>
  new HttpError(
    401,
    'unauthorized',
    'Send X-API-Key: <node_id>:<node_key> of a registered, enabled node.',
  );

/**
 * What a route authenticates its node with: the `X-API-Key` header, and `event`, the request's,
 * for an authenticator that may have reached its verdict before the handler ran (npm start's
 * server: infra/local/header-authenticator.ts). Throws the 401 for a refused key.
 */
export interface RequestAuthenticator {
  authenticate(header: string | undefined, event: object): Promise<CallingNode>;
}

/**
 * Checks `X-API-Key: <node_id>:<node_key>` against the registry. Registry answers are cached per
 * container; the key itself is hashed and compared in constant time on every request, and never
 * stored, logged or echoed.
 */
export class NodeAuthenticator implements RequestAuthenticator {
  private readonly cache: LruMap<string, { node: NodeRecord | null; expiresAt: number }>;
  private readonly options: Required<Omit<AuthenticatorOptions, 'timing'>>;
  private readonly timing: Pick<Timing, 'monotonic' | 'sleep'>;

  constructor(
    private readonly registry: NodeRegistry,
    private readonly clock: Clock,
    options: AuthenticatorOptions = {},
  ) {
    const { timing, ...limits } = options;
    this.options = { ...AUTHENTICATOR_DEFAULTS, ...limits };
    this.cache = new LruMap(this.options.maxEntries);
    this.timing = timing ?? systemTiming;
  }

  /** The header's node; a refusal is answered no sooner than the floor. */
  async authenticate(header: string | undefined): Promise<CallingNode> {
    const startedAt = this.timing.monotonic();
    const node = await this.check(header);
    if (node !== null) return { nodeId: node.nodeId, timezone: node.timezone, room: node.room };
    const wait = this.options.rejectionFloorMs - (this.timing.monotonic() - startedAt);
    if (wait > 0) await this.timing.sleep(wait);
    throw unauthorized();
  }

  /** The node the header authenticates, or null for any refusal. */
  private async check(header: string | undefined): Promise<NodeRecord | null> {
    const separator = header?.indexOf(':') ?? -1;
    if (header === undefined || separator <= 0 || separator === header.length - 1) return null;
    const nodeId = header.slice(0, separator).trim();
    const key = header.slice(separator + 1).trim();
    if (nodeId === '' || key === '' || nodeId.length > 128 || key.length > 512) return null;

    const node = await this.find(nodeId);
    const presented = Buffer.from(hashNodeKey(key), 'hex');
    const expected = Buffer.from(node?.keyHash ?? '', 'hex');
    const matches = expected.length === presented.length && timingSafeEqual(expected, presented);
    return node?.enabled && matches ? node : null;
  }

  private async find(nodeId: string): Promise<NodeRecord | null> {
    const now = this.clock.now();
    const cached = this.cache.get(nodeId);
    if (cached !== undefined && cached.expiresAt > now) return cached.node;
    const node = await this.registry.find(nodeId);
    this.cache.set(nodeId, { node, expiresAt: now + this.options.cacheTtlMs });
    return node;
  }
}
