import { Duration } from 'aws-cdk-lib';
import { ANSWER_MARGIN_MS } from './answer-margin';
import type { DeploySettings } from './deploy-settings';

/** How long each layer waits, all derived from the turn deadline so they can never disagree. */
export interface TurnTiming {
  /** TURN_DEADLINE_MS: the engine stops asking the model and answers 504 past it. */
  readonly turnDeadlineMs: number;
  /** The Lambda timeout: the deadline plus the answer margin, in whole seconds. */
  readonly functionTimeout: Duration;
  /** How long API Gateway waits for the function. */
  readonly integrationTimeout: Duration;
  /**
   * The Lambda timeout of a function that streams: a turn, then the speech of its answer, each
   * within the deadline (the speech routes bound every provider call by it), plus the margin.
   */
  readonly streamedFunctionTimeout: Duration;
  /**
   * How long API Gateway waits for a streamed answer: the function's timeout and a second. A
   * streamed integration may wait up to 15 minutes without a quota increase, so it is not bound
   * by `integrationTimeoutMs` (docs/decisions/2026-11-24-speech-through-api-gateway.md).
   */
  readonly streamedIntegrationTimeout: Duration;
}

/** The longest a streamed integration may wait, and the longest a Lambda function may run. */
export const MAX_STREAMED_SECONDS = 900;

/** The timing of the deployed stack; `parseDeploySettings` has checked that it fits. */
export function turnTiming(
  settings: Pick<DeploySettings, 'turnDeadlineMs' | 'integrationTimeoutMs'>,
): TurnTiming {
  const streamedSeconds = Math.min(
    MAX_STREAMED_SECONDS,
    Math.ceil((2 * settings.turnDeadlineMs + ANSWER_MARGIN_MS) / 1000),
  );
  return {
    turnDeadlineMs: settings.turnDeadlineMs,
    functionTimeout: Duration.seconds(
      Math.ceil((settings.turnDeadlineMs + ANSWER_MARGIN_MS) / 1000),
    ),
    integrationTimeout: Duration.millis(settings.integrationTimeoutMs),
    streamedFunctionTimeout: Duration.seconds(streamedSeconds),
    streamedIntegrationTimeout: Duration.seconds(
      Math.min(MAX_STREAMED_SECONDS, streamedSeconds + 1),
    ),
  };
}
