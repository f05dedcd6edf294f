import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { LIMITS } from '../contract/request-schemas';
import { HttpError } from '../errors/http-error';
import { refuseLargerThan } from './body-size';

const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9.+-]*\+)?json\s*(?:;|$)/i;

/**
 * Refuses what the JSON parser should never see: a body that is not JSON by its content type
 * (415), or one larger than the documented limit (413), measured in bytes as sent.
 */
export function bodyGuard(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
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
