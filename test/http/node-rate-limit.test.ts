import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { NODE_B, useLocalStack } from '../support/local-stack-harness';
import { expectError } from './response-contract';

const harness = useLocalStack({
  languageModel: false,
  env: { NODE_RATE_LIMIT: '3', NODE_RATE_WINDOW_SECONDS: '3600' },
});

describe('fair use per node (hostile row 14)', () => {
  it('answers a node over its limit 429 with Retry-After, and leaves the other nodes alone', async () => {
    const flooding = harness.client();
    const statuses: number[] = [];
    for (let request = 0; request < 5; request += 1) {
      statuses.push((await flooding.post(ROUTES.acknowledge, { voice_command: 'hi' })).status);
    }
    const refused = await flooding.get(ROUTES.dateContext);
    const neighbour = await harness
      .client(NODE_B)
      .post(ROUTES.acknowledge, { voice_command: 'hi' });

    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const error = expectError(refused, 429, 'rate_limited');
    expect(error.error.details).toEqual([
      { limit_requests: 3, window_seconds: 3600, retry_after_seconds: expect.any(Number) },
    ]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(neighbour.status).toBe(200);
  });

  it('refuses a wrong key with 401 before counting anything', async () => {
    const response = await harness
      .client()
      .post(ROUTES.acknowledge, { voice_command: 'hi' }, { key: 'node-a:wrong' });
    expectError(response, 401, 'unauthorized');
  });
});
