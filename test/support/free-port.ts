import { createServer, type Server } from 'node:net';

/** Starts `server` on a free port of 127.0.0.1 and returns that port once it listens. */
export async function listenOnFreePort(server: Server): Promise<number> {
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', failed);
      listening();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP port was assigned');
  return address.port;
}

/** A port free right now on 127.0.0.1 (for a child process that cannot report the one it got). */
export async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listenOnFreePort(server);
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}
