import { LanguageModelError, LanguageModelFailure } from '../../ports/language-model';
import {
  errorOutcome,
  faultOutcome,
  type SubsegmentOutcome,
  throttleOutcome,
} from '../tracing/subsegment-outcome';

/**
 * How a failed model call shows in X-Ray: a refusal (4xx) is an error of the request, rate
 * limiting (429) a throttle, and a server that failed, timed out or sent garbage a fault.
 */
export const modelCallOutcome = (error: unknown): SubsegmentOutcome => {
  if (!(error instanceof LanguageModelError)) return faultOutcome;
  if (error.failure === LanguageModelFailure.rateLimited) return throttleOutcome;
  return error.failure === LanguageModelFailure.rejected ? errorOutcome : faultOutcome;
};
