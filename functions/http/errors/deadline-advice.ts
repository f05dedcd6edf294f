import { handlerSettings } from '../../../shared/adapters/config/settings-table';
import type { TurnTimeoutError } from '../../../shared/conversation';

const { max: MAX_DEADLINE_MS } = handlerSettings.TURN_DEADLINE_MS.check;

/** Rounded up to whole 5 s, so the advice reads as a setting someone would choose. */
const STEP_MS = 5_000;

/**
 * The deadline a 504 suggests: twice the one that ran out (a CPU model's cold first turn, or a box
 * busy with something else, takes about that), up to what TURN_DEADLINE_MS accepts; null when it
 * is there already.
 */
export function suggestedDeadlineMs(deadlineMs: number): number | null {
  if (deadlineMs >= MAX_DEADLINE_MS) return null;
  return Math.min(MAX_DEADLINE_MS, Math.ceil((deadlineMs * 2) / STEP_MS) * STEP_MS);
}

const seconds = (milliseconds: number): string => (milliseconds / 1000).toFixed(1);

/** The 504's message: how long the model took, and which setting to raise to what. */
export function turnTimeoutMessage(error: TurnTimeoutError): string {
  const waited =
    error.elapsedMs === null
      ? `The model had not answered within the turn's deadline`
      : `The model had not answered after ${seconds(error.elapsedMs)} s`;
  const deadline = `TURN_DEADLINE_MS=${error.deadlineMs}, ${seconds(error.deadlineMs)} s`;
  const suggested = suggestedDeadlineMs(error.deadlineMs);
  const advice =
    suggested === null
      ? 'That is the longest TURN_DEADLINE_MS allows: use a faster model or server.'
      : `A model on a CPU can need that for a cold first turn: raise TURN_DEADLINE_MS to ${suggested} ` +
        `(deployed: the stack's turnDeadlineMs, within API Gateway's limit, docs/deploy.md).`;
  return `${waited} (${deadline}); nothing was changed. ${advice}`;
}
