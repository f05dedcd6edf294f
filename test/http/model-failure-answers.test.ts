import { describe, expect, it } from 'vitest';
import { mapError } from '../../functions/http/errors/error-table';
import { isProviderFailureCode } from '../../functions/http/errors/provider-failure-codes';
import { ModelFailedError } from '../../shared/conversation';

describe('a model failure with an answer of its own', () => {
  it.each([
    ['rate_limited', 'llm_throttled', 'throttling this service on every attempt; retry shortly.'],
    ['credentials_rejected', 'llm_credentials_rejected', 'an operator must fix them.'],
    ['permission_denied', 'llm_permission_denied', '(IAM); an operator must grant it.'],
    ['model_access_denied', 'llm_model_access_denied', 'an operator must request it.'],
  ])('%s is a 502 %s telling the node what to do', (failure, code, advice) => {
    // Act
    const mapped = mapError(new ModelFailedError(failure, 3));

    // Assess
    expect(mapped.statusCode).toBe(502);
    expect(mapped.body.error.code).toBe(code);
    expect(mapped.body.error.message).toContain(advice);
    expect(mapped.body.error.details).toEqual([{ failure, model_calls: 3 }]);
    expect(isProviderFailureCode(code)).toBe(true);
  });

  it.each(['unavailable', 'timeout', 'malformed_reply', 'rejected'])(
    '%s is the generic 502 llm_failed, not counted as a code of its own',
    (failure) => {
      const mapped = mapError(new ModelFailedError(failure, 2));

      expect(mapped.body.error).toMatchObject({
        code: 'llm_failed',
        message: `The language model failed after the allowed attempts (${failure}).`,
      });
      expect(isProviderFailureCode('llm_failed')).toBe(false);
    },
  );
});
