/**
 * What a person waits for with a local model, per profile; every figure is modeled (the latency
 * profile's measurement, MEASURED). Before each scenario the model server finishes what it was
 * doing and forgets its cache (a server just started); each registers a command set the API's
 * container has not warmed, unless it says otherwise:
 * 1. the default node's day (skip the warm-up, a start before every utterance): six utterances,
 *    each start -> voice/command -> continue (default-node-day.ts);
 * 2. a node that asks for the warm-up: a warmed start, then five exchanges (voice/command -> a
 *    call -> continue -> the answer), each sent as soon as the one before is answered;
 * 3. a warmed start, the model left to finish, then the first voice/command;
 * 4. a cold model: the server restarted since the API's container warmed scenario 1's command set,
 *    so the start does nothing; the first voice/command (the whole prompt), then the next at once.
 */

import type { LatencyProfile } from '../../test/support/scripted-llm/latency-profile';
import type { BenchRow } from '../bench-row';
import { LocalModelClient, type TimedCall } from './api-calls';
import { defaultNodeDay, utteranceMs } from './default-node-day';
import { EXCHANGES } from './local-model-replies';
import {
  type LocalModelStack,
  MODELED_DEADLINE_MS,
  MODELED_WARMUP_TIMEOUT_MS,
} from './local-model-stack';
import {
  exchange,
  expectPath,
  expectStarted,
  freshModel,
  nextConversationId,
  outcome,
  seconds,
  succeeded,
  totalMs,
  writingOf,
} from './scenario-steps';

/** Issue 21's goal, for the Q4_0 profile: a warm exchange (command + continue) under 5 s. */
const WARM_EXCHANGE_GOAL_MS = 5_000;

export async function runLocalModelScenarios(
  stack: LocalModelStack,
  profile: LatencyProfile,
): Promise<BenchRow[]> {
  const client = new LocalModelClient(stack);
  const name = (label: string, call?: TimedCall) =>
    `local ${profile.name} (modeled): ${label}${call === undefined ? '' : outcome(call)}`;
  const q4 = profile.name === 'Q4_0';
  const commandSet = (scenario: string) => `${profile.name} ${scenario}`;

  // 1. The default node's day.
  const day = await defaultNodeDay(stack, client, commandSet('default node'));
  const [first, ...following] = day;
  if (first === undefined) throw new Error('the default node said nothing');
  const slowestFollowingStart = Math.max(
    ...following.map((utterance) => utterance.start.modeledMs),
  );
  const firstCommand = first.exchange[0];

  // 2. A warmed start and five exchanges.
  await freshModel(stack);
  let id = nextConversationId();
  const warmStart = expectStarted(await client.start(id, true, commandSet('warm start')), 'warmed');
  const turns: TimedCall[][] = [];
  for (let index = 0; index < 5; index += 1) turns.push(await exchange(client, id, index));
  const [afterWarmStart] = turns[0] ?? [];
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
  expectStarted(await client.start(id, true, commandSet('idle')), 'warmed');
  await stack.model.idle();
  const servedBeforeIdle = stack.model.served.length;
  const afterIdle = expectPath(
    await client.command(id, EXCHANGES[0]?.utterance ?? ''),
    'tool_calls',
  );
  const idleCached = stack.model.served[servedBeforeIdle]?.cachedTokens ?? 0;

  // 4. A cold model.
  await freshModel(stack);
  id = nextConversationId();
  expectStarted(await client.start(id, false, commandSet('default node')), 'recently_warmed');
  const servedBefore = stack.model.served.length;
  const cold = expectPath(await client.command(id, EXCHANGES[0]?.utterance ?? ''), 'tool_calls');
  const coldPrompt = stack.model.served[servedBefore]?.promptTokens ?? 0;
  const afterCold = expectPath(
    await client.command(id, EXCHANGES[1]?.utterance ?? ''),
    'tool_calls',
  );

  if (afterWarmStart === undefined || later[0] === undefined || firstCommand === undefined) {
    throw new Error('no exchange ran');
  }
  const row = (label: string, call: TimedCall | undefined, ms: number, budget?: number) => ({
    name: name(label, call),
    value: seconds(ms),
    unit: 's',
    ...(budget === undefined ? {} : { budget: seconds(budget) }),
  });
  const deadline = seconds(MODELED_DEADLINE_MS);
  return [
    row(
      'default node, first utterance of the day: conversation/start (skip asked; warms)',
      first.start,
      first.start.modeledMs,
      MODELED_WARMUP_TIMEOUT_MS,
    ),
    row(
      `default node, first utterance: voice/command (deadline ${deadline} s)`,
      firstCommand,
      firstCommand.modeledMs,
      MODELED_DEADLINE_MS,
    ),
    row('default node, first utterance: start + command + continue', undefined, utteranceMs(first)),
    row(
      `default node, next ${following.length} utterances: slowest conversation/start (recently warmed)`,
      undefined,
      slowestFollowingStart,
    ),
    // Each warm exchange, named by its command, with what the model spends writing its part: the
    // goal holds for some and not for others.
    ...following.map((utterance, index) => {
      const writing = writingOf(utterance.exchange);
      return row(
        `default node, utterance ${index + 2} (${EXCHANGES[(index + 1) % EXCHANGES.length]?.command}): warm command + continue (the model writes ${writing.tokens} tokens: ${seconds(writing.ms)} s)`,
        undefined,
        totalMs(utterance.exchange),
        q4 ? WARM_EXCHANGE_GOAL_MS : undefined,
      );
    }),
    row('conversation/start with warm-up', warmStart, warmStart.modeledMs),
    row('first voice/command right after a warmed start', afterWarmStart, afterWarmStart.modeledMs),
    row('first voice/command after a warmed start, model idle', afterIdle, afterIdle.modeledMs),
    row('first voice/command on a cold model (no warm-up)', cold, cold.modeledMs),
    row('next voice/command right after that one', afterCold, afterCold.modeledMs),
    row('later voice/command turn (exchange 2)', later[0], later[0].modeledMs),
    row(
      'full exchange with a tool call (exchange 2: command + continue)',
      undefined,
      totalMs(later),
    ),
    row(
      `slowest of ${allTurns.length} turns in five exchanges (deadline ${deadline} s)`,
      slowest,
      slowest.modeledMs,
      MODELED_DEADLINE_MS,
    ),
    {
      name: name(`turns failed or past the deadline, of ${allTurns.length}`),
      value: failed,
      unit: 'turns',
      budget: 0,
    },
    {
      name: name('first voice/command prompt, Qwen3 tokens (its tokenizer and template)'),
      value: coldPrompt,
      unit: 'tokens',
    },
    { name: name('of it cached after a finished warm-up'), value: idleCached, unit: 'tokens' },
  ];
}
