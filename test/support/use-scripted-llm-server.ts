import { type ScriptedLlmServer, startScriptedLlmServer } from './scripted-llm-server';
import { useLoopbackServer } from './use-loopback-server';

/**
 * A scripted model server for the tests of the calling file: started before them, reset before
 * each, closed after them. The returned object stands for the running server.
 */
export const useScriptedLlmServer = (): ScriptedLlmServer =>
  useLoopbackServer('useScriptedLlmServer', startScriptedLlmServer);
