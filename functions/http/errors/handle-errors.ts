import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { jsonResponse } from '../edge/json-response';
import { mapError } from './error-table';
import { HttpError } from './http-error';
import { mappedStack } from './mapped-stack';
import { isProviderFailureCode } from './provider-failure-codes';

/**
 * The last word on every failed request: the error table gives status and body; 5xx details go to
 * the log only. Errors from middy's own middlewares (415, malformed JSON as 422) are translated
 * to the statuses of api.md first.
 *
 * Log levels say who must act: ERROR (with the stack) only for a 500, an error the table does not
 * know, which is a bug; WARN for the 5xx the table maps (no model configured, the store or the
 * model failing, the deadline), which are conditions with their reason and no stack, and for 4xx.
 */
export function handleErrors(
  logger: Logger,
  metrics: (context: unknown) => Metrics,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const error = fromMiddy(request.error);
      const mapped = mapError(error);
      const status = mapped.statusCode;
      const code = mapped.body.error.code;
      metrics(request.context).addMetric(`status_${mapped.statusCode}`, MetricUnit.Count, 1);
      // A client that left stopped the work itself (npm start's routes learn it; Lambda's never
      // do): what failed then is no provider's, and nobody reads the answer.
      if (clientLeft(request.context)) {
        logger.info('request ended: the client left', { status, code });
        request.response = jsonResponse(status, mapped.body, mapped.headers);
        return;
      }
      // Which fix a provider's failure needs: its own alarm reads it (provider-failure-codes.ts).
      if (isProviderFailureCode(code)) {
        metrics(request.context).addMetric(code, MetricUnit.Count, 1);
      }
      if (status === 500) {
        logger.error('request failed', { status, code, error: loggedError(error) });
      } else if (status >= 500) {
        logger.warn('request failed', { status, code, reason: reasonOf(error) });
      } else {
        logger.warn('request rejected', { status, code });
      }
      request.response = jsonResponse(status, mapped.body, mapped.headers);
    },
  };
}

const clientLeft = (context: unknown): boolean =>
  (context as { readonly clientGone?: AbortSignal } | undefined)?.clientGone?.aborted === true;

/** A bug's error for the log: its name, message and causes, and its stack mapped to our sources. */
function loggedError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const stack = error.stack === undefined ? undefined : mappedStack(error.stack);
  return { name: error.name, message: error.message, reason: reasonOf(error), stack };
}

const MAX_CAUSES = 5;

/** The messages of an error and its causes, outermost first: what happened, without a stack. */
export function reasonOf(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && messages.length < MAX_CAUSES) {
    messages.push(
      current instanceof Error ? `${current.name}: ${current.message}` : String(current),
    );
    current = current instanceof Error ? current.cause : undefined;
  }
  return messages.join(' <- ');
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
