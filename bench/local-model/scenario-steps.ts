import { roundTo } from '../engine/percentile';
import type { LocalModelClient, TimedCall } from './api-calls';
import { EXCHANGES } from './local-model-replies';
import type { LocalModelStack } from './local-model-stack';
import type { ModelWriting } from './modeled-time';

export const seconds = (milliseconds: number): number => roundTo(milliseconds / 1000, 1);

/** ` [504 turn_timeout]` after a row's name when its request did not answer 200. */
export const outcome = (call: TimedCall): string =>
  call.status === 200 ? '' : ` [${call.status} ${call.errorCode ?? ''}]`.replace(' ]', ']');

export const succeeded = (call: TimedCall): boolean => call.status === 200;

/**
 * A turn that answered took the path the bench means to time (the expected stop after one model
 * call, or as many as told), or the figure would be about something else; a refused turn (504
 * past the deadline) is a result.
 */
export function expectPath(call: TimedCall, stopReason: string, modelCalls = 1): TimedCall {
  if (call.status === 200 && (call.stopReason !== stopReason || call.modelCalls !== modelCalls)) {
    throw new Error(
      `${call.route} ended with ${call.stopReason} after ${call.modelCalls} model calls, not ${stopReason} after ${modelCalls}`,
    );
  }
  if (call.status !== 200 && call.status !== 504) {
    throw new Error(`${call.route} answered ${call.status} ${call.errorCode ?? ''}`);
  }
  return call;
}

/** A start answered 200 and did with its warm-up what the scenario means to time. */
export function expectStarted(call: TimedCall, warmUp: string): TimedCall {
  if (call.status !== 200) throw new Error(`conversation/start answered ${call.status}`);
  if (call.warmUp !== warmUp) {
    throw new Error(`conversation/start's warm-up was ${call.warmUp}, not ${warmUp}`);
  }
  return call;
}

let conversations = 0;
export const nextConversationId = (): string => `local-model-${++conversations}`;

/** The model server finishes its work and forgets its cache: a server just started. */
export async function freshModel(stack: LocalModelStack): Promise<void> {
  await stack.model.idle();
  stack.model.clearCache();
}

/** Runs one exchange: the utterance, and the call's result if the model made one. */
export async function exchange(
  client: LocalModelClient,
  conversationId: string,
  index: number,
): Promise<TimedCall[]> {
  const script = EXCHANGES[index % EXCHANGES.length];
  if (script === undefined) throw new Error('no scripted exchange');
  const command = expectPath(await client.command(conversationId, script.utterance), 'tool_calls');
  if (!succeeded(command)) return [command];
  const results = await client.continue(conversationId, command.toolCallIds, script.output);
  // A result with the command's spoken message is the answer: the model is not asked again.
  return [command, expectPath(results, 'complete', 'message' in script.output ? 0 : 1)];
}

export const totalMs = (calls: readonly TimedCall[]): number =>
  calls.reduce((sum, call) => sum + call.modeledMs, 0);

/** What the model wrote across `calls`: its tokens and their generation time. */
export const writingOf = (calls: readonly TimedCall[]): ModelWriting =>
  calls.reduce(
    (sum, call) => ({ tokens: sum.tokens + call.writing.tokens, ms: sum.ms + call.writing.ms }),
    { tokens: 0, ms: 0 },
  );
