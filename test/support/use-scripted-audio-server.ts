import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type ScriptedAudioServer, startScriptedAudioServer } from './scripted-audio-server';

/**
 * A scripted audio server for the tests of the calling file: started before them, reset before
 * each, closed after them. The returned object stands for the running server.
 */
export function useScriptedAudioServer(): ScriptedAudioServer {
  let running: ScriptedAudioServer | undefined;
  beforeAll(async () => {
    running = await startScriptedAudioServer();
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(() => running?.reset());
  const current = (): ScriptedAudioServer => {
    if (running === undefined) {
      throw new Error('useScriptedAudioServer: the server runs only inside tests');
    }
    return running;
  };
  return {
    get baseURL() {
      return current().baseURL;
    },
    get requests() {
      return current().requests;
    },
    get unexpectedRequests() {
      return current().unexpectedRequests;
    },
    enqueueTranscription: (...steps) => current().enqueueTranscription(...steps),
    enqueueSpeech: (...steps) => current().enqueueSpeech(...steps),
    reset: () => current().reset(),
    close: () => current().close(),
  };
}
