import { type ScriptedAudioServer, startScriptedAudioServer } from './scripted-audio-server';
import { useLoopbackServer } from './use-loopback-server';

/**
 * A scripted audio server for the tests of the calling file: started before them, reset before
 * each, closed after them. The returned object stands for the running server.
 */
export const useScriptedAudioServer = (): ScriptedAudioServer =>
  useLoopbackServer('useScriptedAudioServer', startScriptedAudioServer);
