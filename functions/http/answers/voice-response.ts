import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type {
  AnsweredTurn,
  Refinement,
  TurnAnswer,
  TurnOutcome,
} from '../../../shared/conversation';
import type { VoiceCommandResponse } from '../contract/response-schemas';
import type { JsonResult } from '../edge/create-route';
import { addTokenMetrics, tokenLog } from './token-metrics';

/** A voice/command answer says whether its call refines an earlier one; continue's never does. */
type WithRefinement = { readonly refinement?: Refinement | null };

/**
 * The wire shape of the voice routes (api.md, VoiceCommandResponse), plus what was repaired.
 * `voice_command` is the utterance that opened the turn on every route: nodes parse it as a
 * required string.
 */
export function toVoiceCommandResponse(
  outcome: AnsweredTurn & WithRefinement,
  conversationId: string,
): VoiceCommandResponse {
  const refinement = outcome.refinement ?? null;
  const validation = outcome.validationRequest;
  return {
    commands: [],
    request_information: {
      voice_command: outcome.utterance,
      conversation_id: conversationId,
    },
    stop_reason: outcome.stopReason,
    assistant_message: outcome.assistantMessage,
    tool_calls: outcome.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
    validation_request:
      validation === null
        ? null
        : {
            question: validation.question,
            parameter_name: validation.parameterName,
            options: validation.options,
            tool_call_id: validation.toolCallId,
          },
    parameter_repairs: outcome.repairs.map((repair) => ({
      command: repair.command,
      parameter: repair.parameter,
      rule: repair.rule,
      before: repair.before,
      after: repair.after,
    })),
    retries: outcome.retries.map((retry) => ({
      reason: retry.reason,
      issues: retry.issues.map((issue) => ({
        command: issue.command,
        parameter: issue.parameter,
        code: issue.code,
        message: issue.message,
      })),
    })),
    model_calls: outcome.modelCalls,
    usage:
      outcome.usage === null || outcome.usage === undefined
        ? null
        : {
            prompt_tokens: outcome.usage.promptTokens,
            completion_tokens: outcome.usage.completionTokens,
            cached_tokens: outcome.usage.cachedTokens,
          },
    refinement:
      refinement === null
        ? null
        : {
            command: refinement.command,
            tool_call_id: refinement.toolCallId,
            refines_tool_call_id: refinement.refinesToolCallId,
            changed: refinement.changed,
          },
  };
}

/**
 * The success of the voice routes (`status`: 200, or 202 on the stream routes), logged and
 * counted. A replay (a repeated request id) says so in the `Idempotent-Replayed` header, and its
 * turn is not counted twice.
 */
export function voiceAnswerResult(
  answer: TurnAnswer & WithRefinement,
  request: { readonly conversationId: string; readonly status: number },
  logger: Logger,
  metrics: Metrics,
): JsonResult {
  if (answer.replayed) {
    metrics.addMetric('replayed_requests', MetricUnit.Count, 1);
    logger.info('recorded response replayed', { stop_reason: answer.stopReason });
  } else {
    recordTurn(answer, logger, metrics);
  }
  return {
    statusCode: request.status,
    body: toVoiceCommandResponse(answer, request.conversationId),
    headers: answer.replayed ? { 'Idempotent-Replayed': 'true' } : {},
  };
}

/** One log line and a few metrics per turn: what ops look at when a model misbehaves. */
export function recordTurn(
  outcome: TurnOutcome & WithRefinement,
  logger: Logger,
  metrics: Metrics,
): void {
  const refinement = outcome.refinement ?? null;
  metrics.addMetric('model_calls', MetricUnit.Count, outcome.modelCalls);
  metrics.addMetric('refinements', MetricUnit.Count, refinement === null ? 0 : 1);
  // 1 when the node's commands wrote the answer and the model was not asked (model_calls 0).
  const byCommands = outcome.answeredByCommands === true;
  metrics.addMetric('command_answers', MetricUnit.Count, byCommands ? 1 : 0);
  metrics.addMetric('validation_retries', MetricUnit.Count, outcome.retries.length);
  metrics.addMetric('parameter_repairs', MetricUnit.Count, outcome.repairs.length);
  // Every attempt's, the calls the model redid included: how hard the model made the turn.
  const attemptRepairs = outcome.attemptRepairs ?? outcome.repairs.length;
  metrics.addMetric('parameter_repairs_all_attempts', MetricUnit.Count, attemptRepairs);
  metrics.addMetric(`stop_${outcome.stopReason}`, MetricUnit.Count, 1);
  const usage = outcome.usage ?? null;
  if (usage !== null) {
    addTokenMetrics(usage, metrics);
    // 0 when the server says nothing: a turn that thought is what the dashboard looks for.
    metrics.addMetric('reasoning_tokens', MetricUnit.Count, usage.reasoningTokens ?? 0);
  }
  logger.info('turn finished', {
    stop_reason: outcome.stopReason,
    model_calls: outcome.modelCalls,
    retries: outcome.retries.map((retry) => retry.reason),
    repairs: outcome.repairs.map(
      (repair) => `${repair.command}.${repair.parameter}:${repair.rule}`,
    ),
    step_limit_reached: outcome.stepLimitReached,
    answered_by: byCommands ? 'commands' : 'model',
    tokens:
      usage === null ? null : { ...tokenLog(usage), reasoning: usage.reasoningTokens ?? null },
    refinement:
      refinement === null ? null : `${refinement.command}:${refinement.changed.join(',')}`,
  });
}
