import type { MiddlewareObj } from '@middy/core';
import { Ajv, type ErrorObject } from 'ajv';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { JSONSchema } from 'json-schema-to-ts';
import { LIMITS } from '../contract/request-schemas';
import type { SchemaType } from '../contract/schema-type';
import { HttpError } from '../errors/http-error';
import { refuseLargerThan } from './body-size';
import { jsonBodyParser } from './json-body';

const MAX_DETAILS = 20;

/** A JSON Schema of an object body (no boolean schema). */
type ObjectSchema = Exclude<JSONSchema, boolean> & Record<string, unknown>;

type EdgeMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

/** What a route reads from the request body: the middlewares that accept it, then the body. */
export interface RequestBody<Body> {
  /** Run in order before the route. */
  readonly middlewares: readonly EdgeMiddleware[];
  /** The body the middlewares accepted for this event. */
  readonly read: (event: APIGatewayProxyEvent) => Body;
}

/** A route that takes no body: nothing is read, parsed or checked. */
export const NO_BODY: RequestBody<null> = { middlewares: [], read: () => null };

/**
 * A JSON body: guarded (media type, size), parsed, then checked against `schema`, compiled once
 * when the route is built. The route reads it typed as the schema describes (`SchemaType`).
 */
export function jsonBody<Schema extends ObjectSchema>(
  schema: Schema,
): RequestBody<SchemaType<Schema>> {
  type Body = SchemaType<Schema>;
  const ajvSchema: Record<string, unknown> = schema;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(ajvSchema);
  // `Body` is derived from the very schema Ajv checks: what passes has that type.
  const conforms = (body: unknown): body is Body => validate(body);
  // Remembered per event, so the route reads the checked body without checking it again.
  const accepted = new WeakMap<APIGatewayProxyEvent, { readonly body: Body }>();
  const validateRequest: EdgeMiddleware = {
    before: ({ event }) => {
      const body: unknown = event.body;
      if (conforms(body)) {
        accepted.set(event, { body });
        return;
      }
      const details = (validate.errors ?? []).slice(0, MAX_DETAILS).map(describe);
      throw new HttpError(
        400,
        'invalid_request',
        'The body does not match the request schema.',
        details,
      );
    },
  };
  return {
    middlewares: [bodyGuard(), jsonBodyParser(), validateRequest],
    read: (event) => {
      const checked = accepted.get(event);
      if (checked === undefined) throw new Error('the body validation middleware did not run');
      return checked.body;
    },
  };
}

function describe(error: ErrorObject): { path: string; message: string } {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  const missing = error.keyword === 'required' ? ` (${String(error.params.missingProperty)})` : '';
  return { path, message: `${error.message ?? 'is invalid'}${missing}` };
}

const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9.+-]*\+)?json\s*(?:;|$)/i;

/**
 * Refuses what the JSON parser should never see: a body that is not JSON by its content type
 * (415), or one larger than the documented limit (413), measured in bytes as sent.
 */
function bodyGuard(): EdgeMiddleware {
  return {
    before: ({ event }) => {
      const contentType = event.headers?.['content-type'] ?? event.headers?.['Content-Type'];
      if (typeof contentType !== 'string' || !JSON_MEDIA_TYPE.test(contentType.trim())) {
        throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json.');
      }
      refuseLargerThan(event, LIMITS.bodyBytes, 'body');
      if ((event.body ?? '').trim() === '') {
        throw new HttpError(400, 'invalid_json', 'The body is empty; send a JSON object.');
      }
    },
  };
}
