import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** The part of dynalite's options we use (dynalite ships no types). */
interface DynaliteOptions {
  readonly path?: string;
  readonly createTableMs: number;
  readonly deleteTableMs: number;
  readonly updateTableMs: number;
}

// dynalite is CommonJS without type declarations; requiring it lets us give it the type above.
const createDynalite = createRequire(import.meta.url)('dynalite') as (
  options: DynaliteOptions,
) => Server;

export interface EmbeddedDynamoDb {
  readonly endpoint: string;
  readonly port: number;
  close(): Promise<void>;
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::']);

/**
 * DynamoDB in this process (dynalite): LevelDB files under `path`, or memory when none is given.
 * It listens on loopback unless `host` says otherwise; port 0 picks a free port.
 */
export async function startEmbeddedDynamoDb(options: {
  readonly path?: string;
  readonly port: number;
  readonly host?: string;
}): Promise<EmbeddedDynamoDb> {
  const host = options.host ?? '127.0.0.1';
  const server = createDynalite({
    ...(options.path === undefined ? {} : { path: options.path }),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | null = null;
  return {
    // Every interface includes loopback, the address this process and the tools can dial; an
    // IPv6 address is bracketed in a URL.
    endpoint: `http://${WILDCARD_HOSTS.has(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      });
      return closed;
    },
  };
}
