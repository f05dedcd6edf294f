import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { expectError, expectStarted } from './response-contract';
import { ROUTE_NAMES, type RouteName, validBody } from './route-recovery';

const harness = useLocalStack();
const RUNS = { numRuns: 25 };

/** Whatever a request gets is a documented answer with a well-formed body; never a 500. */
function expectDocumented(
  response: Awaited<ReturnType<ReturnType<typeof harness.client>['post']>>,
): void {
  expect([200, 400, 401, 404, 409, 413, 415], response.text).toContain(response.status);
  if (response.status >= 400) expectError(response, response.status);
}

describe.each(ROUTE_NAMES)('any request to %s gets a well-formed answer', (route: RouteName) => {
  it('any JSON value as the body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (body) => {
        expectDocumented(await harness.client().post(ROUTES[route], body));
      }),
      RUNS,
    );
  });

  it('any text as the body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (rawBody) => {
        const response = await harness.client().post(ROUTES[route], null, { rawBody });
        expectDocumented(response);
        expect(response.status).not.toBe(200);
      }),
      RUNS,
    );
  });

  it('any X-API-Key with a valid body: 401', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[!-~][ -~]{0,80}$/), async (key) => {
        expectError(
          await harness.client().post(ROUTES[route], validBody(route, 'any'), { key }),
          401,
          'unauthorized',
        );
      }),
      RUNS,
    );
  });

  it('any Content-Type but JSON: 415', async () => {
    const contentType = fc
      .stringMatching(/^[a-z]{1,12}\/[a-z0-9.+-]{1,20}$/)
      .filter((type) => !/json$/.test(type));
    await fc.assert(
      fc.asyncProperty(contentType, async (type) => {
        const response = await harness
          .client()
          .post(ROUTES[route], validBody(route, 'any'), { contentType: type });
        expectError(response, 415, 'unsupported_media_type');
      }),
      RUNS,
    );
  });
});

describe('unknown fields beside the known ones', () => {
  it('are accepted and ignored by conversation/start (nodes send more than api.md lists)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.stringMatching(/^x_[a-z]{1,10}$/), fc.jsonValue({ maxDepth: 2 })),
        async (extra) => {
          const body = { ...extra, ...validBody('start', 'any') };
          expectStarted(
            await harness.client().post(ROUTES.start, body),
            String(body.conversation_id),
          );
        },
      ),
      { numRuns: 10 },
    );
  });
});
