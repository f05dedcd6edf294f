import { randomUUID } from 'node:crypto';
import {
  AUTHENTICATOR_DEFAULTS,
  NodeAuthenticator,
} from '../functions/http/edge/node-authenticator';
import { startEmbeddedDynamoDb } from '../infra/local/embedded-dynamodb';
import { handlerSettings } from '../shared/adapters/config/settings-table';
import { createDynamoDbClient } from '../shared/adapters/dynamodb/client';
import { DynamoDbNodeRateLimiter } from '../shared/adapters/dynamodb/node-rate-limiter';
import { DynamoDbNodeRegistry } from '../shared/adapters/dynamodb/node-registry';
import { createTableIfMissing } from '../shared/adapters/dynamodb/table';
import { hashNodeKey } from '../shared/adapters/node-key';
import { systemClock } from '../shared/adapters/system/system-clock';
import type { BenchRow } from './bench-row';
import { percentile } from './engine/percentile';
import { timed } from './timed';

const ATTEMPTS = 60;

/**
 * How long authentication takes for a known node with its key, a known node with a wrong key, and
 * a node id never seen (each a fresh one, so a registry read every time), against the registry
 * on dynalite: with the production floor for refusals, and without it (what an attacker timing
 * 401s would see otherwise). The two refusals should match; success stays fast.
 */
export async function runAuthBench(): Promise<BenchRow[]> {
  const database = await startEmbeddedDynamoDb({ port: 0 });
  const client = createDynamoDbClient({ region: 'us-east-1', endpoint: database.endpoint });
  const tableName = `jcc-bench-auth-${randomUUID()}`;
  try {
    await createTableIfMissing(client, tableName);
    const registry = new DynamoDbNodeRegistry({ client, tableName });
    await registry.put({
      nodeId: 'known',
      keyHash: hashNodeKey('known-key'),
      timezone: 'UTC',
      room: null,
      name: 'known',
      enabled: true,
    });
    const rows: BenchRow[] = [];
    for (const floor of [AUTHENTICATOR_DEFAULTS.rejectionFloorMs, 0]) {
      const authenticator = new NodeAuthenticator(registry, systemClock, {
        rejectionFloorMs: floor,
      });
      await authenticator.authenticate('known:known-key');
      const cases = {
        'known node, right key': () => 'known:known-key',
        'known node, wrong key': () => 'known:wrong-key',
        'unknown node id (fresh each time)': () => `${randomUUID()}:wrong-key`,
      };
      for (const [label, header] of Object.entries(cases)) {
        const times = await timeAttempts(authenticator, header);
        rows.push({
          name: `auth p50, ${label}, refusal floor ${floor} ms`,
          value: Number(percentile(times, 0.5).toFixed(3)),
          unit: 'ms',
        });
      }
    }
    // At the default limit a container writes the window once per block (a twentieth of the
    // limit); the first request of a block pays the write (a node id of its own each time here).
    const defaultLimit = handlerSettings.NODE_RATE_LIMIT.default;
    const limiterAt = (requests: number) =>
      new DynamoDbNodeRateLimiter({
        client,
        tableName,
        clock: systemClock,
        requests,
        windowSeconds: 60,
      });
    const perBlock = limiterAt(defaultLimit);
    const writing = limiterAt(defaultLimit);
    const admits: number[] = [];
    const writes: number[] = [];
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      // A fresh node before its limit could refuse: only admissions are timed.
      const node = `known-${Math.floor(attempt / (defaultLimit / 2))}`;
      admits.push((await timed(() => perBlock.admit(node))).ms);
      writes.push((await timed(() => writing.admit(`fresh-${randomUUID()}`))).ms);
    }
    rows.push(
      {
        name: `rate limit p50 at the default limit (${defaultLimit} a window, one write per ${perBlock.blockSize} requests; dynalite, no network)`,
        value: Number(percentile(admits, 0.5).toFixed(3)),
        unit: 'ms',
      },
      {
        name: 'rate limit p50, the first request of a block (one conditional UpdateItem)',
        value: Number(percentile(writes, 0.5).toFixed(3)),
        unit: 'ms',
      },
    );
    return rows;
  } finally {
    client.destroy();
    await database.close();
  }
}

async function timeAttempts(
  authenticator: NodeAuthenticator,
  header: () => string,
): Promise<number[]> {
  const times: number[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const startedAt = performance.now();
    await authenticator.authenticate(header()).catch(() => undefined);
    times.push(performance.now() - startedAt);
  }
  return times;
}
