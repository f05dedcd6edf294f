import type { Server, Socket } from 'node:net';
import { afterEach } from 'vitest';

/** What a test file's loopback servers left open: closed after each of its tests. */
export interface ClosedAfterEach {
  /** Servers (plain or HTTP) the test started: their connections are ended, then they close. */
  readonly servers: Server[];
  /** Raw sockets a server handed a script: destroyed first. */
  readonly sockets: Set<Socket>;
}

/** Servers and sockets of the calling file's tests, tracked here and closed after each test. */
export function closedAfterEach(): ClosedAfterEach {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await Promise.all(
      servers.splice(0).map(
        (server) =>
          new Promise<void>((resolve) => {
            if ('closeAllConnections' in server && typeof server.closeAllConnections === 'function')
              server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  });
  return { servers, sockets };
}
