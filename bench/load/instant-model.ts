import {
  type FixedStep,
  type RecordedRequest,
  type ScriptedLlmServer,
  startScriptedLlmServer,
} from '../../test/support/scripted-llm-server';
import { findTurnTag } from './turn-tag';

/** The node command the model calls for every utterance (declared by the fixture registration). */
export const LOAD_COMMAND = 'set_timer';

/**
 * The model's judgement for a load run, from the request alone, so that any number of
 * conversations can be in flight at once: a user utterance gets one valid call of the node's
 * command labelled with the utterance's tag; a tool result gets the final spoken answer.
 */
export function replyFor(request: RecordedRequest): FixedStep {
  const last = request.body?.messages?.at(-1);
  const text = typeof last?.content === 'string' ? last.content : '';
  const tag = findTurnTag(text) ?? 'untagged';
  if (last?.role === 'user') {
    const call = {
      name: LOAD_COMMAND,
      arguments: JSON.stringify({ duration_seconds: 300, label: tag }),
    };
    return { reply: { content: null, tool_calls: [call] } };
  }
  return { reply: { content: `Timer ${tag} is running.` } };
}

export interface InstantModelStats {
  readonly modelCalls: number;
  /** Requests the real API would have refused (a history with an unanswered call, ...). */
  readonly protocolViolations: number;
  readonly firstViolation: string | null;
}

export interface InstantModel {
  readonly baseURL: string;
  stats(): InstantModelStats;
  close(): Promise<void>;
}

/** Replies queued ahead; refilled long before the queue could run dry between two model calls. */
const BATCH = 2_000;
/** The scripted server records every request; past this many it is reset so memory stays flat. */
const MAX_RECORDED = 2_000;

/**
 * The test suite's scripted OpenAI-compatible server (with its protocol checks) answering every
 * chat completion at once with `replyFor`. That server plays a queue of replies and records
 * every request, so this keeps the queue topped up and resets the recording as it fills.
 */
export async function startInstantModel(): Promise<InstantModel> {
  const server: ScriptedLlmServer = await startScriptedLlmServer();
  let queued = 0;
  let modelCalls = 0;
  let violations = 0;
  let firstViolation: string | null = null;
  const settle = () => {
    violations += server.protocolViolations.length + server.unexpectedRequests.length;
    firstViolation ??=
      server.protocolViolations[0]?.message ?? server.unexpectedRequests[0]?.error ?? null;
  };
  const step = (request: RecordedRequest): FixedStep => {
    queued -= 1;
    modelCalls += 1;
    if (server.requests.length >= MAX_RECORDED) {
      settle();
      server.reset();
      queued = 0;
    }
    if (queued < BATCH / 2) refill();
    return replyFor(request);
  };
  const refill = () => {
    server.enqueue(...Array.from({ length: BATCH }, () => step));
    queued += BATCH;
  };
  refill();
  return {
    baseURL: server.baseURL,
    stats: () => {
      settle();
      server.reset();
      queued = 0;
      refill();
      return { modelCalls, protocolViolations: violations, firstViolation };
    },
    close: () => server.close(),
  };
}
