import { afterAll, beforeAll, beforeEach } from 'vitest';

/** What every scripted loopback server of test/support offers. */
interface LoopbackServer {
  reset(): void;
  close(): Promise<void>;
}

/**
 * A loopback server for the tests of the calling file: started before them, reset before each,
 * closed after them. The returned object stands for the running server: every property and
 * method is the running one's, looked up when a test uses it.
 */
export function useLoopbackServer<Server extends LoopbackServer>(
  name: string,
  start: () => Promise<Server>,
): Server {
  let running: Server | undefined;
  beforeAll(async () => {
    running = await start();
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(() => running?.reset());
  const current = (): Server => {
    if (running === undefined) throw new Error(`${name}: the server runs only inside tests`);
    return running;
  };
  return new Proxy({} as Server, {
    get: (_target, key) => {
      const server = current();
      const value: unknown = Reflect.get(server, key);
      return typeof value === 'function' ? value.bind(server) : value;
    },
  });
}
