import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type ScriptedLlmServer, startScriptedLlmServer } from './scripted-llm-server';

/**
 * A scripted model server for the tests of the calling file: started before them, reset before
 * each, closed after them. The returned object stands for the running server.
 */
export function useScriptedLlmServer(): ScriptedLlmServer {
  let running: ScriptedLlmServer | undefined;
  beforeAll(async () => {
    running = await startScriptedLlmServer();
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(() => running?.reset());
  const current = (): ScriptedLlmServer => {
    if (running === undefined)
      throw new Error('useScriptedLlmServer: the server runs only inside tests');
    return running;
  };
  return {
    get baseURL() {
      return current().baseURL;
    },
    get requests() {
      return current().requests;
    },
    get protocolViolations() {
      return current().protocolViolations;
    },
    get unexpectedRequests() {
      return current().unexpectedRequests;
    },
    enqueue: (...steps) => current().enqueue(...steps),
    reset: () => current().reset(),
    close: () => current().close(),
  };
}
