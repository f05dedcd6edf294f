import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { mapError } from './error-table';
import { HttpError } from './http-error';
import { jsonResponse } from './json-response';

/**
 * The last word on every failed request: the error table gives status and body; 5xx details go to
 * the log only. Errors from middy's own middlewares (415, malformed JSON as 422) are translated
 * to the statuses of api.md first.
 */
export function handleErrors(
  logger: Logger,
  metrics: Metrics,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const error = fromMiddy(request.error);
      const mapped = mapError(error);
      metrics.addMetric(`status_${mapped.statusCode}`, MetricUnit.Count, 1);
      if (mapped.statusCode >= 500) {
        logger.error('request failed', {
          status: mapped.statusCode,
          code: mapped.body.error.code,
          error,
        });
      } else {
        logger.warn('request rejected', {
          status: mapped.statusCode,
          code: mapped.body.error.code,
        });
      }
      request.response = jsonResponse(mapped.statusCode, mapped.body, mapped.headers);
    },
  };
}

function fromMiddy(error: unknown): unknown {
  if (error instanceof HttpError || !(error instanceof Error) || !('statusCode' in error))
    return error;
  const status = Number(error.statusCode);
  if (status === 415) {
    return new HttpError(415, 'unsupported_media_type', 'Send the body as application/json.');
  }
  if (status >= 400 && status < 500) {
    return new HttpError(400, 'invalid_json', `The body is not acceptable JSON: ${error.message}.`);
  }
  return error;
}
