// The scripted model of the attack bench in a process of its own: serializing its megabyte
// replies is the model server's CPU, not the API's, and must not count as the request's.

import type { ScriptStep } from '../test/support/scripted-llm/script-types';
import { startScriptedLlmServer } from '../test/support/scripted-llm-server';

type Command =
  | { readonly id: number; readonly kind: 'reset' }
  | { readonly id: number; readonly kind: 'enqueue'; readonly steps: ScriptStep[] }
  | { readonly id: number; readonly kind: 'close' };

const model = await startScriptedLlmServer();
const send = (message: unknown) => process.send?.(message);
process.on('message', (command: Command) => {
  if (command.kind === 'reset') model.reset();
  if (command.kind === 'enqueue') model.enqueue(...command.steps);
  if (command.kind === 'close') {
    void model.close().then(() => {
      send({ id: command.id });
      process.disconnect();
    });
    return;
  }
  send({ id: command.id });
});
send({ baseURL: model.baseURL });
