import type { TurnOutcome } from '../../shared/conversation/turn/turn-outcome';

/** A turn that ended in the model's answer after one model call, with nothing else to report. */
export const completeOutcome = (assistantMessage: string): TurnOutcome => ({
  stopReason: 'complete',
  assistantMessage,
  toolCalls: [],
  validationRequest: null,
  modelCalls: 1,
  retries: [],
  repairs: [],
  stepLimitReached: false,
  usage: null,
});
