import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from '../../shared/chat/chat-message';
import {
  DEFAULT_ENGINE_SETTINGS,
  type EngineSettings,
} from '../../shared/conversation/engine-settings';
import { SERVER_TOOL_NAMES } from '../../shared/conversation/server-tools/server-tool-names';
import { step } from '../../shared/conversation/turn/step';
import type { TurnOutcome } from '../../shared/conversation/turn/turn-outcome';
import {
  startTurn,
  type TurnContext,
  type TurnState,
} from '../../shared/conversation/turn/turn-state';
import {
  type CommandSetSource,
  type CompiledCommandSet,
  compileCommandSet,
} from '../../shared/params';
import type { Clock } from '../../shared/ports/clock';
import type { ModelReply, RawToolCall } from '../../shared/ports/language-model';
import { sequentialIds } from '../conversation/tool-calls/sequential-ids';

/** The registration a real node sends (copied from shared/fixtures). */
export function fixtureRegistration(): CommandSetSource & { conversation_id: string } {
  const path = fileURLToPath(
    new URL('../fixtures/voice-node-conversation-start.json', import.meta.url),
  );
  return JSON.parse(readFileSync(path, 'utf8')) as CommandSetSource & { conversation_id: string };
}

export function compile(source: CommandSetSource): CompiledCommandSet {
  const result = compileCommandSet(source, { reservedNames: SERVER_TOOL_NAMES });
  if (!result.ok) throw new Error(`fixture does not compile: ${JSON.stringify(result.issues)}`);
  return result.value;
}

/** 2026-01-16T15:00:00Z: a Friday, 10:00 in New York. */
export const FIXED_NOW = Date.UTC(2026, 0, 16, 15, 0, 0);

export const fixedClock = (now = FIXED_NOW): Clock & { advance(ms: number): void } => {
  let current = now;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
};

/** call_1, call_2...: predictable ids, and the list of those issued. */
export { sequentialIds };

export function turnContext(
  commandSet: CompiledCommandSet,
  settings: Partial<EngineSettings> = {},
): TurnContext {
  return {
    commandSet,
    settings: { ...DEFAULT_ENGINE_SETTINGS, ...settings },
    ids: sequentialIds(),
    serverTools: { timezone: 'America/New_York', now: FIXED_NOW, commandSet },
  };
}

export const reply = (content: string | null, toolCalls: RawToolCall[] = []): ModelReply => ({
  content,
  toolCalls,
  finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
});

export const call = (
  name: string,
  args: unknown,
  id: string | null = `model_${name}`,
): RawToolCall => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

export interface ScriptedTurn {
  readonly outcome: TurnOutcome;
  readonly state: TurnState;
  readonly toolChoices: readonly string[];
}

/** The scripted turn ended in a failure (a 502 in the service). */
export class TurnFailedError extends Error {
  override readonly name = 'TurnFailedError';
  constructor(
    readonly failure: string,
    readonly state: TurnState,
  ) {
    super(`the turn failed: ${failure}`);
  }
}

/**
 * Drives the pure `step` with scripted replies, as the driver would; fails if the turn asks for
 * more replies than scripted.
 */
export function runScripted(
  context: TurnContext,
  replies: readonly ModelReply[],
  options: { messages?: readonly ChatMessage[]; toolResultsArrived?: boolean } = {},
): ScriptedTurn {
  let state = startTurn(
    options.messages ?? [{ role: 'user', content: 'test utterance' }],
    options.toolResultsArrived ?? false,
  );
  const toolChoices: string[] = [];
  for (const next of replies) {
    const action = step(state, next, context);
    if (action.type === 'finish') {
      if (action.state.modelCalls !== replies.length) {
        throw new Error(
          `turn finished after ${action.state.modelCalls} of ${replies.length} scripted replies`,
        );
      }
      return { outcome: action.outcome, state: action.state, toolChoices };
    }
    if (action.type === 'fail') throw new TurnFailedError(action.failure, action.state);
    toolChoices.push(action.toolChoice);
    state = action.state;
  }
  throw new Error(`turn wanted more than ${replies.length} replies`);
}

/** Every tool call in the history has exactly one tool message before any other message. */
export function assertValidHistory(messages: readonly ChatMessage[]): void {
  let open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'tool') {
      if (!open.delete(message.toolCallId))
        throw new Error(`tool message ${message.toolCallId} answers nothing`);
      continue;
    }
    if (open.size > 0)
      throw new Error(`calls ${[...open].join(', ')} unanswered before a ${message.role} message`);
    if (message.role === 'assistant')
      open = new Set(message.toolCalls.map((toolCall) => toolCall.id));
  }
}
