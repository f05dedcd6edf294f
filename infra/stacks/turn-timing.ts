import { Duration } from 'aws-cdk-lib';
import type { DeploySettings } from './deploy-settings';

/**
 * Time a turn needs after its deadline to save and answer: the function must outlive the turn by
 * this much, and API Gateway must wait for the function.
 */
export const ANSWER_MARGIN_MS = 3_000;

/** How long each layer waits, all derived from the turn deadline so they can never disagree. */
export interface TurnTiming {
  /** TURN_DEADLINE_MS: the engine stops asking the model and answers 504 past it. */
  readonly turnDeadlineMs: number;
  /** The Lambda timeout: the deadline plus the answer margin, in whole seconds. */
  readonly functionTimeout: Duration;
  /** How long API Gateway waits for the function. */
  readonly integrationTimeout: Duration;
}

/** The timing of the deployed stack; `parseDeploySettings` has checked that it fits. */
export function turnTiming(
  settings: Pick<DeploySettings, 'turnDeadlineMs' | 'integrationTimeoutMs'>,
): TurnTiming {
  return {
    turnDeadlineMs: settings.turnDeadlineMs,
    functionTimeout: Duration.seconds(
      Math.ceil((settings.turnDeadlineMs + ANSWER_MARGIN_MS) / 1000),
    ),
    integrationTimeout: Duration.millis(settings.integrationTimeoutMs),
  };
}
