import type { ToolDefinition } from '../../chat/chat-message';
import { type CompiledCommandSet, strictTools } from '../../params';
import type { Clock } from '../../ports/clock';
import {
  type LanguageModel,
  LanguageModelError,
  LanguageModelFailure,
  type ModelReply,
} from '../../ports/language-model';
import { ModelFailedError, TurnTimeoutError } from '../errors';
import { withHomeBlock } from '../home/with-home-block';
import { buildSystemPrompt } from '../prompt/system-prompt';
import { SERVER_TOOLS } from '../server-tools/server-tools';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

export interface TurnDriverDependencies {
  readonly model: LanguageModel;
  readonly clock: Clock;
  /**
   * Runs `step` (the use cases: a worker under a hard limit, shared/adapters/isolation). Given by
   * the caller, never imported here: the main thread's bundle then holds no reply scanning and no
   * server tool runner, which only the worker runs (test/bundling/worker-only-code.test.ts).
   */
  readonly step: (state: TurnState, reply: ModelReply, context: TurnContext) => Promise<TurnAction>;
}

interface RequestParts {
  readonly systemMessage: { readonly role: 'system'; readonly content: string };
  readonly tools: readonly ToolDefinition[];
}

/**
 * The prompt and tool list of a command set never change, so they are built once per set: the
 * same objects every call, which the model adapter encodes once (chat-request.ts).
 */
const requestParts = new WeakMap<CompiledCommandSet, Map<boolean, RequestParts>>();

/**
 * The driver: the only part of the turn that does I/O. It calls the model while `step` asks for
 * it, gives each call the time left before the deadline, and turns model failures into the
 * domain's typed errors. The state it returns has not been saved yet.
 */
export async function runTurn(
  initial: TurnState,
  context: TurnContext,
  dependencies: TurnDriverDependencies,
  deadline: number,
): Promise<Extract<TurnAction, { type: 'finish' }>> {
  const { systemMessage, tools } = partsFor(context.commandSet, context.settings.strictToolSchemas);
  let action: TurnAction = { type: 'call_model', state: initial, toolChoice: 'auto' };
  // What a 504 says the model took: the turn's time so far, its model calls nearly all of it.
  const elapsedMs = () => dependencies.clock.now() - (deadline - context.settings.turnDeadlineMs);
  while (action.type === 'call_model') {
    const { state, toolChoice }: Extract<TurnAction, { type: 'call_model' }> = action;
    const timeoutMs = deadline - dependencies.clock.now();
    if (timeoutMs <= 0) {
      throw new TurnTimeoutError(context.settings.turnDeadlineMs, state.modelCalls, {
        elapsedMs: elapsedMs(),
      });
    }
    const reply = await callModel(dependencies.model, state, context, timeoutMs, elapsedMs, {
      messages: withHomeBlock([systemMessage, ...state.messages], context.home?.prompt ?? null),
      tools,
      toolChoice,
      cacheKey: context.commandSet.hash,
    });
    action = await dependencies.step(state, reply, context);
  }
  if (action.type === 'fail') throw new ModelFailedError(action.failure, action.state.modelCalls);
  return action;
}

/** The system prompt of a command set, as the model receives it. */
export function systemPromptFor(commandSet: CompiledCommandSet): string {
  return partsFor(commandSet, false).systemMessage.content;
}

/** The prompt prefix every request of a command set starts with: its system prompt and tools. */
export function requestPrefixFor(commandSet: CompiledCommandSet, strict = false): RequestParts {
  return partsFor(commandSet, strict);
}

async function callModel(
  model: LanguageModel,
  state: TurnState,
  context: TurnContext,
  timeoutMs: number,
  elapsedMs: () => number,
  request: Parameters<LanguageModel['complete']>[0],
): Promise<ModelReply> {
  try {
    return await model.complete(request, { timeoutMs });
  } catch (error) {
    if (!(error instanceof LanguageModelError)) throw error;
    const calls = state.modelCalls + 1;
    if (error.failure === LanguageModelFailure.timeout) {
      throw new TurnTimeoutError(context.settings.turnDeadlineMs, calls, {
        cause: error,
        elapsedMs: elapsedMs(),
      });
    }
    throw new ModelFailedError(error.failure, calls, { cause: error });
  }
}

function partsFor(commandSet: CompiledCommandSet, strict: boolean): RequestParts {
  const variants = requestParts.get(commandSet) ?? new Map<boolean, RequestParts>();
  requestParts.set(commandSet, variants);
  let parts = variants.get(strict);
  if (parts === undefined) {
    const nodeTools = strict
      ? strictTools(commandSet.tools).map(({ tool }) => tool)
      : commandSet.tools;
    const systemMessage = { role: 'system', content: buildSystemPrompt(commandSet) } as const;
    parts = { systemMessage, tools: [...nodeTools, ...SERVER_TOOLS] };
    variants.set(strict, parts);
  }
  return parts;
}
