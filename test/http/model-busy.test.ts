import { describe, expect, it } from 'vitest';
import { mapError } from '../../functions/http/errors/error-table';
import { ModelFailedError } from '../../shared/conversation';

describe('a full queue of the embedded model', () => {
  it('is a 503 llm_busy with Retry-After, not a 502 of a failed model', () => {
    // Act
    const mapped = mapError(new ModelFailedError('busy', 1));

    // Assess
    expect(mapped.statusCode).toBe(503);
    expect(mapped.headers).toEqual({ 'Retry-After': '5' });
    expect(mapped.body.error).toMatchObject({
      code: 'llm_busy',
      details: [{ failure: 'busy', retry_after_seconds: 5 }],
    });
  });

  it('any other failure stays a 502 llm_failed', () => {
    // Act
    const mapped = mapError(new ModelFailedError('unavailable', 3));

    // Assess
    expect(mapped.statusCode).toBe(502);
    expect(mapped.body.error.code).toBe('llm_failed');
  });
});
