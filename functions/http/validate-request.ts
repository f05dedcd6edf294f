import type { MiddlewareObj } from '@middy/core';
import { Ajv, type ErrorObject } from 'ajv';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { HttpError } from './http-error';

const MAX_DETAILS = 20;

/** Checks the parsed body against the route's JSON Schema, compiled once when the route is built. */
export function validateRequest(
  schema: Record<string, unknown>,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  return {
    before: ({ event }) => {
      if (validate(event.body)) return;
      const details = (validate.errors ?? []).slice(0, MAX_DETAILS).map(describe);
      throw new HttpError(
        400,
        'invalid_request',
        'The body does not match the request schema.',
        details,
      );
    },
  };
}

function describe(error: ErrorObject): { path: string; message: string } {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  const missing = error.keyword === 'required' ? ` (${String(error.params.missingProperty)})` : '';
  return { path, message: `${error.message ?? 'is invalid'}${missing}` };
}
