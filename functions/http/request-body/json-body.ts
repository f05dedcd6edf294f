import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { firstInexactNumber, isJsonObject, parseJsonExact } from '../../../shared/params';
import { HttpError } from '../errors/http-error';

/**
 * Parses the body as JSON, data as data: a key `__proto__` or `constructor` is an own property
 * like any other (JSON.parse never touches a prototype; middy's parser refused such keys, so a
 * node's tool output holding one could never be delivered). A number a double cannot hold
 * exactly (`1e400`, an integer beyond 2^53) is kept as its exact text inside a tool output, which
 * is passed on as text, and refused anywhere else (a 400 naming where): never changed silently.
 */
export function jsonBodyParser(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: ({ event }) => {
      const text =
        event.isBase64Encoded && event.body !== null
          ? Buffer.from(event.body, 'base64').toString()
          : (event.body ?? '');
      let body: unknown;
      try {
        body = parseJsonExact(text);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new HttpError(400, 'invalid_json', `The body is not acceptable JSON: ${reason}.`);
      }
      const inexact = firstInexactNumber(withoutToolOutputs(body));
      if (inexact !== null) {
        const at = `/${inexact.path.join('/')}`;
        throw new HttpError(
          400,
          'invalid_json',
          `The body holds a number a 64-bit float cannot carry exactly at ${at}; send it as a string.`,
          [{ path: at }],
        );
      }
      (event as { body: unknown }).body = body;
    },
  };
}

/** The body without the outputs of `tool_results`: they are passed on as text, exactly as sent. */
function withoutToolOutputs(body: unknown): unknown {
  if (!isJsonObject(body) || !Array.isArray(body.tool_results)) return body;
  const results = body.tool_results.map((result: unknown) =>
    isJsonObject(result) ? { ...result, output: null } : result,
  );
  return { ...body, tool_results: results };
}
