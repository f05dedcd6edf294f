import { isDeepStrictEqual } from 'node:util';
import type { ChatMessage } from '../../shared/chat/chat-message';
import { DEFAULT_ENGINE_SETTINGS } from '../../shared/conversation/engine-settings';
import { TURN_GROWTH_BYTES } from '../../shared/conversation/history/conversation-budget';
import { step } from '../../shared/conversation/turn/step';
import type { StopReason } from '../../shared/conversation/turn/turn-outcome';
import { startTurn, type TurnContext } from '../../shared/conversation/turn/turn-state';
import type { CompiledCommandSet } from '../../shared/params';
import type { IdGenerator } from '../../shared/ports/clock';
import type { CaseCommands, FailureModeCase } from './failure-mode-case';

/** Far above any bound the engine sets: reaching it means the turn would never stop. */
const RUNAWAY_CALLS = 50;

/** 2026-01-16T15:00:00Z, a Friday, 10:00 in New York: the dates in the cases are relative to it. */
const CASE_NOW = Date.UTC(2026, 0, 16, 15, 0, 0);

export interface ModelCallCount {
  readonly testCase: FailureModeCase;
  readonly calls: number;
  readonly stopReason: StopReason | 'never stopped';
  /** False when the node would receive other arguments than the row says. */
  readonly argumentsRight: boolean;
  /** Exactly the minimum calls, and the outcome (and arguments) the row asks for. */
  readonly ok: boolean;
}

/** The history a continue turn starts from: the node has answered the call it was given. */
const AFTER_TOOL_RESULTS: readonly ChatMessage[] = [
  { role: 'user', content: 'Set a timer for one minute' },
  {
    role: 'assistant',
    content: null,
    toolCalls: [{ id: 'call_timer', name: 'set_timer', arguments: '{"duration_seconds":60}' }],
  },
  { role: 'tool', toolCallId: 'call_timer', content: '{"status":"started"}' },
];

function sequentialIds(): IdGenerator {
  let issued = 0;
  return {
    next: (prefix) => {
      issued += 1;
      return `${prefix}${issued}`;
    },
  };
}

/**
 * Runs one case through the pure `step`, as the driver would, answering every model call from the
 * case's script, and counts the calls the turn made.
 */
export function countModelCalls(
  testCase: FailureModeCase,
  commandSet: CompiledCommandSet,
): ModelCallCount {
  const context: TurnContext = {
    commandSet,
    settings: DEFAULT_ENGINE_SETTINGS,
    ids: sequentialIds(),
    serverTools: { timezone: 'America/New_York', now: CASE_NOW, commandSet },
    // What a conversation with the fixture's registration and the default history budget allows.
    exchangeRoomBytes: DEFAULT_ENGINE_SETTINGS.maxHistoryBytes - TURN_GROWTH_BYTES,
  };
  const arrived = testCase.toolResultsArrived === true;
  let state = startTurn(
    testCase.history ??
      (arrived ? AFTER_TOOL_RESULTS : [{ role: 'user', content: 'a voice command' }]),
    arrived,
  );
  const lastReply = testCase.replies.length - 1;
  for (let call = 0; call < RUNAWAY_CALLS; call += 1) {
    const modelReply = testCase.replies[Math.min(call, lastReply)] ?? testCase.replies[0];
    const action = step(state, modelReply, context);
    if (action.type === 'finish') {
      const { modelCalls, stopReason, toolCalls } = action.outcome;
      const first = toolCalls[0];
      const argumentsRight =
        testCase.handedOver === undefined ||
        (first !== undefined &&
          isDeepStrictEqual(JSON.parse(first.arguments), testCase.handedOver));
      const ok =
        modelCalls === testCase.minimumCalls &&
        stopReason === testCase.expectedStop &&
        argumentsRight;
      return { testCase, calls: modelCalls, stopReason, argumentsRight, ok };
    }
    state = action.state;
  }
  return {
    testCase,
    calls: RUNAWAY_CALLS,
    stopReason: 'never stopped',
    argumentsRight: false,
    ok: false,
  };
}

/** Every case against its command set. */
export function countAllModelCalls(
  cases: readonly FailureModeCase[],
  commandSets: Readonly<Record<CaseCommands, CompiledCommandSet>>,
): ModelCallCount[] {
  return cases.map((testCase) => countModelCalls(testCase, commandSets[testCase.commands]));
}
