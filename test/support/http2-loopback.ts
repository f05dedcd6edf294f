import type { Http2Server, Http2Session } from 'node:http2';
import { listenOnFreePort } from './free-port';

/**
 * Starts a scripted HTTP/2 server on a free loopback port; `close` ends every session it holds
 * first (an SDK keeps its session open, and the server would wait for it forever).
 */
export async function listenOnLoopback(
  server: Http2Server,
): Promise<{ readonly endpoint: string; close(): Promise<void> }> {
  const sessions = new Set<Http2Session>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  const port = await listenOnFreePort(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const session of sessions) session.destroy();
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}
