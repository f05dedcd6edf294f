// The worker thread of WorkerIsolation: the untrusted CPU work of one request at a time, under the
// thread's resourceLimits and the pool's deadline. Bundled as its own entry (isolation-worker.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import type { ChatMessage } from '../../chat/chat-message';
import { SERVER_TOOL_NAMES } from '../../conversation/server-tools/server-tool-names';
import { inThreadWork } from '../../conversation/turn/in-thread-work';
import { step } from '../../conversation/turn/step';
import type { TurnContext } from '../../conversation/turn/turn-state';
import { compileKnownCommandSet } from '../../params';
import type { IdGenerator } from '../../ports/clock';
import { randomIds } from '../system/system-clock';
import {
  crossed,
  crossingAction,
  readId,
  type WorkerSetup,
  type WorkReply,
  type WorkRequest,
} from './isolation-protocol';

const port = parentPort;
if (port === null) throw new Error('isolation-worker.ts runs as a worker thread only');
const { idBuffer } = workerData as WorkerSetup;
const post = (reply: WorkReply) => port.postMessage(reply);

/** Ids from the pool's generator, in the order the core asks: the same ids as in-thread. */
const poolIds: IdGenerator = {
  next(prefix) {
    post({ kind: 'id', prefix });
    return readId(idBuffer);
  },
};

/** The history of the last step, index for index the one the pool holds (isolation-protocol.ts). */
let held: readonly ChatMessage[] | null = null;
/** The registrations the pool sent, by hash: what it keeps and drops (held-registrations.ts). */
const registrations = new Map<string, string>();

/** The request's registration, after doing as it says: first, so nothing can skip it. */
function registrationOf(request: Extract<WorkRequest, { kind: 'step' }>): string {
  for (const hash of request.forget) registrations.delete(hash);
  if (request.commandSource !== null)
    registrations.set(request.commandSetHash, request.commandSource);
  const source = registrations.get(request.commandSetHash);
  if (source === undefined)
    throw new Error(`isolation: registration ${request.commandSetHash} neither sent nor held`);
  return source;
}

port.on('message', async (request: WorkRequest) => {
  try {
    if (request.kind === 'compile') {
      post({
        kind: 'compiled',
        job: request.job,
        check: await inThreadWork.compile(request.source),
      });
      return;
    }
    const source = registrationOf(request);
    const compiled = compileKnownCommandSet(request.commandSetHash, () => JSON.parse(source), {
      reservedNames: SERVER_TOOL_NAMES,
    });
    if (!compiled.ok)
      throw new Error(`stored command set ${request.commandSetHash} does not compile`);
    const commandSet = compiled.value;
    const context: TurnContext = {
      ...request.context,
      commandSet,
      ids: request.ids === 'worker' ? randomIds : poolIds,
      serverTools: { ...request.context.serverTools, commandSet },
    };
    const messages = crossed(request.state.messages, held);
    held = null;
    const action = step({ ...request.state, messages }, request.reply, context);
    held = action.state.messages;
    post({ kind: 'stepped', job: request.job, action: crossingAction(action, messages) });
  } catch (error) {
    post({ kind: 'failed', job: request.job, message: String(error) });
  }
});
post({ kind: 'ready' });
