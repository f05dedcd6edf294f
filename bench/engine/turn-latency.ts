import { performance } from 'node:perf_hooks';
import { randomIds, systemClock } from '../../shared/adapters/system/system-clock';
import { DEFAULT_ENGINE_SETTINGS } from '../../shared/conversation/engine-settings';
import { inThreadWork } from '../../shared/conversation/turn/in-thread-work';
import type { TurnOutcome } from '../../shared/conversation/turn/turn-outcome';
import type { UntrustedWork } from '../../shared/conversation/turn/untrusted-work';
import { continueConversation } from '../../shared/conversation/use-cases/continue-conversation';
import type { ConversationDependencies } from '../../shared/conversation/use-cases/conversation-dependencies';
import { handleVoiceCommand } from '../../shared/conversation/use-cases/handle-voice-command';
import { startConversation } from '../../shared/conversation/use-cases/start-conversation';
import type { CommandSetSource } from '../../shared/params';
import type { ModelRequest } from '../../shared/ports/language-model';
import { InstantLanguageModel } from './instant-model';
import { reply, toolCall, WEATHER_ARGUMENTS } from './scripted-replies';

export interface LatencyPlan {
  /** Exchanges run first and thrown away: JIT, connection pool and caches warm up. */
  readonly warmupExchanges: number;
  readonly measuredExchanges: number;
  /** A fresh conversation every so many exchanges, so the history stays the size of a real one. */
  readonly exchangesPerConversation: number;
}

/** Milliseconds per measured exchange, for each half and for both. */
export interface ExchangeLatencies {
  /** voice/command: the utterance in, one get_weather call out. */
  readonly command: readonly number[];
  /** voice/command/continue: the weather in, the spoken answer out. */
  readonly continued: readonly number[];
  readonly exchange: readonly number[];
}

const NODE = { nodeId: 'bench-node', timezone: 'America/New_York', room: 'kitchen' } as const;
const UTTERANCE = "What's the forecast for Los Angeles tomorrow?";
const FORECAST = {
  city: 'Los Angeles',
  days: [{ date: '2026-01-17', summary: 'sunny', high_c: 24, low_c: 13 }],
};

/** The model's judgement, instantly: a get_weather call for an utterance, an answer for results. */
function weatherModel(): InstantLanguageModel {
  let callNumber = 0;
  return new InstantLanguageModel((request: ModelRequest) => {
    callNumber += 1;
    if (request.messages.at(-1)?.role === 'tool')
      return reply('Sunny in Los Angeles tomorrow, 24 degrees.');
    return reply(null, [toolCall('get_weather', WEATHER_ARGUMENTS, `call_weather_${callNumber}`)]);
  });
}

function expectStop(
  outcome: TurnOutcome,
  stopReason: TurnOutcome['stopReason'],
  route: string,
): void {
  // A benchmark that timed the wrong path would quote a number about nothing.
  if (outcome.stopReason !== stopReason || outcome.modelCalls !== 1) {
    throw new Error(
      `${route} ended with ${outcome.stopReason} after ${outcome.modelCalls} model calls`,
    );
  }
}

/**
 * Times full exchanges through the use cases (utterance -> get_weather -> results -> answer) on
 * `storage`, with the instant model: what is left is the server's own work per turn.
 */
export async function measureExchanges(
  storage: Pick<ConversationDependencies, 'store'>,
  commands: CommandSetSource,
  plan: LatencyPlan,
  untrustedWork: UntrustedWork = inThreadWork,
): Promise<ExchangeLatencies> {
  const model = weatherModel();
  const dependencies: ConversationDependencies = {
    ...storage,
    model,
    clock: systemClock,
    ids: randomIds,
    // The turn alone is measured: no model warm-up at each start.
    settings: { ...DEFAULT_ENGINE_SETTINGS, warmUpTimeoutMs: 0 },
    untrustedWork,
  };
  const command: number[] = [];
  const continued: number[] = [];
  const exchange: number[] = [];
  let conversationId = '';
  for (let index = 0; index < plan.warmupExchanges + plan.measuredExchanges; index += 1) {
    if (index % plan.exchangesPerConversation === 0) {
      conversationId = `bench-conversation-${index}`;
      await startConversation(dependencies, {
        node: NODE,
        conversationId,
        requestTimezone: null,
        commands,
      });
    }
    const commandStart = performance.now();
    const first = await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: UTTERANCE,
    });
    const commandMs = performance.now() - commandStart;
    expectStop(first, 'tool_calls', 'voice/command');
    const toolResults = first.toolCalls.map((call) => ({ toolCallId: call.id, output: FORECAST }));
    const continueStart = performance.now();
    const second = await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults,
    });
    const continueMs = performance.now() - continueStart;
    expectStop(second, 'complete', 'voice/command/continue');
    if (index < plan.warmupExchanges) continue;
    command.push(commandMs);
    continued.push(continueMs);
    exchange.push(commandMs + continueMs);
  }
  const exchanges = plan.warmupExchanges + plan.measuredExchanges;
  // The model's own count, against the outcomes': one call per turn, two turns per exchange.
  if (model.calls !== 2 * exchanges) {
    throw new Error(`the model was called ${model.calls} times for ${exchanges} exchanges`);
  }
  return { command, continued, exchange };
}
