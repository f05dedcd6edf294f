/**
 * What a person waits for with a local model, per profile. Before each scenario the model server
 * finishes what it was doing and forgets its cache (a server just started):
 * 1. no warm-up: start with `skip_warmup_inference`, the first voice/command (the whole prompt),
 *    then the next utterance at once (queued behind the first if the API gave up on it);
 * 2. a warmed start, then five exchanges (voice/command -> a call -> continue -> the answer),
 *    each sent as soon as the one before is answered;
 * 3. a warmed start, the model left to finish, then the first voice/command.
 */

import type { LatencyProfile } from '../../test/support/scripted-llm/latency-profile';
import type { BenchRow } from '../bench-row';
import { roundTo } from '../engine/percentile';
import { LocalModelClient, type TimedCall } from './api-calls';
import { EXCHANGES } from './local-model-replies';
import { type LocalModelStack, MODELED_DEADLINE_MS } from './local-model-stack';

/** Issue 11's goals, for the Q4_0 profile. */
const FIRST_WARM_COMMAND_GOAL_MS = 5_000;

const seconds = (milliseconds: number): number => roundTo(milliseconds / 1000, 1);
const outcome = (call: TimedCall): string =>
  call.status === 200 ? '' : ` [${call.status} ${call.errorCode ?? ''}]`.replace(' ]', ']');
const succeeded = (call: TimedCall): boolean => call.status === 200;

/**
 * A turn that answered took the path the bench means to time (one model call, the expected stop),
 * or the figure would be about something else; a refused turn (504 past the deadline) is a result.
 */
function expectPath(call: TimedCall, stopReason: string): TimedCall {
  if (call.status === 200 && (call.stopReason !== stopReason || call.modelCalls !== 1)) {
    throw new Error(
      `${call.route} ended with ${call.stopReason} after ${call.modelCalls} model calls, not ${stopReason} after 1`,
    );
  }
  if (call.status !== 200 && call.status !== 504) {
    throw new Error(`${call.route} answered ${call.status} ${call.errorCode ?? ''}`);
  }
  return call;
}

function expectStarted(call: TimedCall): TimedCall {
  if (call.status !== 200) throw new Error(`conversation/start answered ${call.status}`);
  return call;
}

let conversations = 0;
const nextConversationId = (): string => `local-model-${++conversations}`;

async function freshModel(stack: LocalModelStack): Promise<void> {
  await stack.model.idle();
  stack.model.clearCache();
}

/** Runs one exchange: the utterance, and the call's result if the model made one. */
async function exchange(
  client: LocalModelClient,
  conversationId: string,
  index: number,
): Promise<TimedCall[]> {
  const script = EXCHANGES[index % EXCHANGES.length];
  if (script === undefined) throw new Error('no scripted exchange');
  const command = expectPath(await client.command(conversationId, script.utterance), 'tool_calls');
  if (!succeeded(command)) return [command];
  const results = await client.continue(conversationId, command.toolCallIds, script.output);
  return [command, expectPath(results, 'complete')];
}

export async function runLocalModelScenarios(
  stack: LocalModelStack,
  profile: LatencyProfile,
): Promise<BenchRow[]> {
  const client = new LocalModelClient(stack);
  const name = (label: string, call?: TimedCall) =>
    `local ${profile.name}: ${label}${call === undefined ? '' : outcome(call)}`;
  const goals = profile.name === 'Q4_0';
  const rows: BenchRow[] = [];

  // 1. No warm-up.
  await freshModel(stack);
  let id = nextConversationId();
  expectStarted(await client.start(id, false));
  const servedBefore = stack.model.served.length;
  const cold = expectPath(await client.command(id, EXCHANGES[0]?.utterance ?? ''), 'tool_calls');
  const coldPrompt = stack.model.served[servedBefore]?.promptTokens ?? 0;
  const afterCold = expectPath(
    await client.command(id, EXCHANGES[1]?.utterance ?? ''),
    'tool_calls',
  );

  // 2. A warmed start and five exchanges.
  await freshModel(stack);
  id = nextConversationId();
  const warmStart = expectStarted(await client.start(id, true));
  const turns: TimedCall[][] = [];
  for (let index = 0; index < 5; index += 1) turns.push(await exchange(client, id, index));
  const [firstCommand] = turns[0] ?? [];
  const later = turns[1] ?? [];
  const allTurns = turns.flat();
  const slowest = allTurns.reduce((worst, call) =>
    call.modeledMs > worst.modeledMs ? call : worst,
  );
  const failed = allTurns.filter(
    (call) => !succeeded(call) || call.modeledMs > MODELED_DEADLINE_MS,
  ).length;

  // 3. A warmed start, the model left to finish its warm-up.
  await freshModel(stack);
  id = nextConversationId();
  expectStarted(await client.start(id, true));
  await stack.model.idle();
  const servedBeforeIdle = stack.model.served.length;
  const afterIdle = expectPath(
    await client.command(id, EXCHANGES[0]?.utterance ?? ''),
    'tool_calls',
  );
  const idleCached = stack.model.served[servedBeforeIdle]?.cachedTokens ?? 0;

  if (firstCommand === undefined || later[0] === undefined) throw new Error('no exchange ran');
  const row = (
    label: string,
    call: TimedCall | undefined,
    ms: number,
    budget?: number,
  ): BenchRow => ({
    name: name(label, call),
    value: seconds(ms),
    unit: 's',
    ...(budget === undefined ? {} : { budget: seconds(budget) }),
  });
  rows.push(
    row('conversation/start with warm-up', warmStart, warmStart.modeledMs),
    row(
      'first voice/command right after a warmed start',
      firstCommand,
      firstCommand.modeledMs,
      goals ? FIRST_WARM_COMMAND_GOAL_MS : undefined,
    ),
    row('first voice/command after a warmed start, model idle', afterIdle, afterIdle.modeledMs),
    row('first voice/command without warm-up', cold, cold.modeledMs),
    row('next voice/command right after that one', afterCold, afterCold.modeledMs),
    row('later voice/command turn (exchange 2)', later[0], later[0].modeledMs),
    {
      name: name('full exchange with a tool call (exchange 2: command + continue)'),
      value: seconds(later.reduce((sum, call) => sum + call.modeledMs, 0)),
      unit: 's',
    },
    row(
      `slowest of ${allTurns.length} turns in five exchanges (deadline ${seconds(MODELED_DEADLINE_MS)} s)`,
      slowest,
      slowest.modeledMs,
      goals ? MODELED_DEADLINE_MS : undefined,
    ),
    {
      name: name(`turns failed or past the deadline, of ${allTurns.length}`),
      value: failed,
      unit: 'turns',
      ...(goals ? { budget: 0 } : {}),
    },
    {
      name: name('first voice/command prompt, model tokens (Qwen3 template, est.)'),
      value: coldPrompt,
      unit: 'tokens',
    },
    {
      name: name('of it cached after a finished warm-up'),
      value: idleCached,
      unit: 'tokens',
    },
  );
  return rows;
}
