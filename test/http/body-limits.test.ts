import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../functions/http/contract/request-schemas';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { fixtureStartBody } from './http-fixtures';
import { expectError, expectStarted } from './response-contract';
import {
  expectValidRequestWorks,
  pendingConversation,
  ROUTE_NAMES,
  type RouteName,
  validBody,
} from './route-recovery';

const harness = useLocalStack();
let conversationId = '';
beforeEach(async () => {
  conversationId = await pendingConversation(harness.client(), harness.llm, 'limits');
});

/** A valid start body grown, through an extra string field nodes may send, to exactly `bytes` bytes. */
function startBodyOfBytes(id: string, bytes: number, padding = ' '): string {
  const withNote = (note: string) => JSON.stringify({ note, ...fixtureStartBody(id) });
  const room = bytes - Buffer.byteLength(withNote(''));
  const paddingBytes = Buffer.byteLength(padding);
  if (room < 0 || room % paddingBytes !== 0) throw new Error(`cannot pad to ${bytes} bytes`);
  return withNote(padding.repeat(room / paddingBytes));
}

describe('413: the body limit is 256 KiB, counted in bytes as sent', () => {
  it.each(ROUTE_NAMES)(
    '%s: one byte over the limit is refused with the limit in details',
    async (route: RouteName) => {
      // Prepare
      const oversized = startBodyOfBytes('too-big', LIMITS.bodyBytes + 1);

      // Act
      const response = await harness.client().post(ROUTES[route], null, { rawBody: oversized });

      // Assess
      const error = expectError(response, 413, 'payload_too_large');
      expect(error.error.details).toEqual([
        { limit_bytes: LIMITS.bodyBytes, received_bytes: LIMITS.bodyBytes + 1 },
      ]);
      await expectValidRequestWorks(harness.client(), harness.llm, route, conversationId);
    },
  );

  it('a body of exactly 256 KiB is accepted', async () => {
    // Act
    const response = await harness.client().post(ROUTES.start, null, {
      rawBody: startBodyOfBytes('at-limit', LIMITS.bodyBytes),
    });

    // Assess
    expectStarted(response, 'at-limit');
  });

  it('fewer characters than the limit but more bytes (two-byte characters) is refused', async () => {
    // Prepare: padded with "é", two bytes each in UTF-8.
    const body = startBodyOfBytes('multi-byte', LIMITS.bodyBytes + 2 * 1024, 'é');

    // Act
    const response = await harness.client().post(ROUTES.start, null, { rawBody: body });

    // Assess
    expect(body.length).toBeLessThan(LIMITS.bodyBytes);
    expectError(response, 413, 'payload_too_large');
  });
});

describe('415: only application/json bodies', () => {
  it.each([
    ['start', 'text/plain'],
    ['start', null],
    ['command', 'application/x-www-form-urlencoded'],
    ['command', 'multipart/form-data; boundary=x'],
    ['continue', 'application/xml'],
    ['continue', 'text/json'],
  ] as const)(
    '%s with Content-Type %s is refused; a valid request then works',
    async (route: RouteName, contentType) => {
      // Act
      const response = await harness
        .client()
        .post(ROUTES[route], validBody(route, conversationId), { contentType });

      // Assess
      expectError(response, 415, 'unsupported_media_type');
      await expectValidRequestWorks(harness.client(), harness.llm, route, conversationId);
    },
  );

  it.each([
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/vnd.jarvis+json',
    'application/json ; charset=utf-8',
  ])('the JSON media type %s is accepted', async (contentType) => {
    // Act
    const response = await harness
      .client()
      .post(ROUTES.start, fixtureStartBody('media-type'), { contentType });

    // Assess
    expectStarted(response, 'media-type');
  });
});
