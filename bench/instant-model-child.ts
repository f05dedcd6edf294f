// The instant model of the turn bench in a process of its own: parsing and checking each request
// is the model server's CPU, as it is on the machine that serves a real model.

import { startInstantModel } from './load/instant-model';

type Command =
  | { readonly id: number; readonly kind: 'stats' }
  | { readonly id: number; readonly kind: 'close' };

const model = await startInstantModel();
const send = (message: unknown) => process.send?.(message);
process.on('message', (command: Command) => {
  if (command.kind === 'stats') send({ id: command.id, ...model.stats() });
  if (command.kind === 'close') {
    void model.close().then(() => {
      send({ id: command.id });
      process.disconnect();
    });
  }
});
send({ baseURL: model.baseURL });
