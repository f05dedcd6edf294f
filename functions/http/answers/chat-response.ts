import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { ChatAnswer } from '../../../shared/conversation/chat/complete-chat';
import type { ChatCompletion } from '../contract/chat-completion-schema';
import { addTokenMetrics, tokenLog } from './token-metrics';

/** What the completion body names besides the answer: where it came from, and when. */
export interface CompletionFacts {
  readonly id: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly model: string;
}

/** The answer as OpenAI's chat completion body (api.md: routines read `choices[0].message.content`). */
export function toChatCompletion(answer: ChatAnswer, facts: CompletionFacts): ChatCompletion {
  const usage = answer.usage;
  return {
    id: facts.id,
    object: 'chat.completion',
    created: Math.floor(facts.createdAt / 1000),
    model: facts.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: answer.content },
        finish_reason: answer.finishReason,
      },
    ],
    usage:
      usage === null
        ? null
        : {
            prompt_tokens: usage.promptTokens,
            completion_tokens: usage.completionTokens,
            total_tokens: usage.promptTokens + usage.completionTokens,
          },
  };
}

/**
 * A chat counted as a turn is (voice-response.ts): its model call and tokens, under the `chat`
 * route, plus whether the reply was cut off at `max_tokens`. The log line says how much was asked,
 * never what: routines send the user's calendar and messages.
 */
export function recordChat(
  answer: ChatAnswer,
  request: { readonly messages: number; readonly characters: number },
  logger: Logger,
  metrics: Metrics,
): void {
  const cutOff = answer.finishReason === 'length';
  metrics.addMetric('model_calls', MetricUnit.Count, 1);
  metrics.addMetric('chat_cut_off', MetricUnit.Count, cutOff ? 1 : 0);
  const usage = answer.usage;
  if (usage !== null) addTokenMetrics(usage, metrics);
  logger.info('chat finished', {
    messages: request.messages,
    characters: request.characters,
    finish_reason: answer.finishReason,
    answer_characters: answer.content.length,
    tokens: usage === null ? null : tokenLog(usage),
  });
}
