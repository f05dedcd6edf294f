import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  acknowledgeRequestSchema,
  type continueRequestSchema,
  type voiceCommandRequestSchema,
} from '../../functions/http/contract/request-schemas';
import type { VoiceCommandResponse } from '../../functions/http/contract/response-schemas';
import type { SchemaType } from '../../functions/http/contract/schema-type';
import { jsonBody } from '../../functions/http/request-body/validate-request';

// The type assertions fail the type check (`npm test` runs it), not the test run.
describe('SchemaType: the body types derived from the request schemas', () => {
  it('gives the shapes the routes read: read-only, named fields only, optional as declared', () => {
    expectTypeOf<SchemaType<typeof voiceCommandRequestSchema>>().toEqualTypeOf<{
      readonly voice_command: string;
      readonly conversation_id: string;
      readonly request_id?: string | null;
      readonly speaker_user_id?: number | null;
    }>();
    expectTypeOf<SchemaType<typeof continueRequestSchema>>().toEqualTypeOf<{
      readonly conversation_id: string;
      readonly tool_results: readonly {
        readonly tool_call_id: string;
        readonly output?: unknown;
      }[];
      readonly request_id?: string | null;
    }>();
    expectTypeOf<SchemaType<typeof acknowledgeRequestSchema>>().toEqualTypeOf<{
      readonly voice_command: string;
    }>();
  });

  it('refuses a field the schema does not name (no index signature from open objects)', () => {
    const misspelled: Partial<VoiceCommandResponse> = {
      // @ts-expect-error `stop_reasons` is not a field of VoiceCommandResponse
      stop_reasons: 'complete',
    };
    expect(misspelled).toEqual({ stop_reasons: 'complete' });
  });
});

describe('jsonBody', () => {
  const event = (body: string): APIGatewayProxyEvent =>
    ({ body, headers: { 'content-type': 'application/json' }, isBase64Encoded: false }) as never;
  const runMiddlewares = async (
    reader: ReturnType<typeof jsonBody>,
    request: APIGatewayProxyEvent,
  ) => {
    for (const middleware of reader.middlewares) {
      await middleware.before?.({ event: request, context: {}, response: null } as never);
    }
  };

  it('hands the route the body its middlewares parsed and checked', async () => {
    const reader = jsonBody(acknowledgeRequestSchema);
    const request = event('{"voice_command":"lights on","extra":1}');

    await runMiddlewares(reader, request);

    expect(reader.read(request)).toEqual({ voice_command: 'lights on', extra: 1 });
  });

  it('throws (a bug, not an empty body) when read for an event its middlewares never saw', () => {
    const reader = jsonBody(acknowledgeRequestSchema);

    expect(() => reader.read(event('{"voice_command":"x"}'))).toThrow(/did not run/);
  });

  it('refuses a body the schema rejects before the route could read it', async () => {
    const reader = jsonBody(acknowledgeRequestSchema);
    const request = event('{"voice_command":""}');

    await expect(runMiddlewares(reader, request)).rejects.toMatchObject({
      statusCode: 400,
      code: 'invalid_request',
    });
    expect(() => reader.read(request)).toThrow(/did not run/);
  });
});
