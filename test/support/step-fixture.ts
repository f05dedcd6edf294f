/**
 * What the tests of the turn step share: the fixture node's command set, the calls they script
 * most, and `runStep`, one turn of scripted replies on a fresh turn context.
 */

import type { ChatMessage } from '../../shared/chat/chat-message';
import type { EngineSettings } from '../../shared/conversation/engine-settings';
import type { CompiledCommandSet } from '../../shared/params';
import type { ModelReply, RawToolCall } from '../../shared/ports/language-model';
import {
  call,
  compile,
  fixtureRegistration,
  reply,
  runScripted,
  type ScriptedTurn,
  turnContext,
} from './engine-fixtures';
import { MUST_CALL_COMMANDS } from './probe-commands';

/** The commands a real node registers (shared/fixtures), compiled once for every step test. */
export const FIXTURE_COMMANDS: CompiledCommandSet = compile(fixtureRegistration());

/** Commands that must all be called (`allow_direct_answer: false`): no direct answer is final. */
export const MUST_CALL_SET: CompiledCommandSet = compile(MUST_CALL_COMMANDS);

/** "Tomorrow" resolved at FIXED_NOW (a Friday in New York): Saturday's midnight there, in UTC. */
export const TOMORROW: readonly string[] = ['2026-01-17T05:00:00Z'];

/** Valid arguments of the fixture's get_weather. */
export const WEATHER = { city: 'Los Angeles', resolved_datetimes: TOMORROW };

/** A reply with one valid get_weather call (id `call_w`). */
export const weatherReply = (): ModelReply => reply(null, [call('get_weather', WEATHER, 'call_w')]);

/** A set_timer call of the fixture, valid for any positive `seconds`. */
export const timerCall = (seconds: number, id: string | null): RawToolCall =>
  call('set_timer', { duration_seconds: seconds }, id);

export interface StepRun {
  /** The command set the turn checks calls against; the fixture's by default. */
  readonly commandSet?: CompiledCommandSet;
  readonly settings?: Partial<EngineSettings>;
  /** The history the turn starts from; one user message by default. */
  readonly messages?: readonly ChatMessage[];
  readonly toolResultsArrived?: boolean;
  /** The exchange's room for the node's results (unbounded by default). */
  readonly exchangeRoomBytes?: number;
}

/**
 * Drives `step` over the scripted replies as the driver would, on a fresh turn context (its ids
 * start at call_1), and fails unless the turn ends on the last reply.
 */
export function runStep(replies: readonly ModelReply[], run: StepRun = {}): ScriptedTurn {
  const context = turnContext(run.commandSet ?? FIXTURE_COMMANDS, run.settings);
  return runScripted(
    run.exchangeRoomBytes === undefined
      ? context
      : { ...context, exchangeRoomBytes: run.exchangeRoomBytes },
    replies,
    {
      ...(run.messages === undefined ? {} : { messages: run.messages }),
      ...(run.toolResultsArrived === undefined
        ? {}
        : { toolResultsArrived: run.toolResultsArrived }),
    },
  );
}
