import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';

/** One answer API Gateway gives itself, before or instead of a function, in our error shape. */
export interface GatewayAnswer {
  readonly type: ResponseType;
  /** Null keeps the status API Gateway chose (the DEFAULT_* families). */
  readonly status: number | null;
  readonly code: string;
  /**
   * A fixed message, or null for API Gateway's own (`$context.error.messageString`, which it
   * substitutes already quoted as a JSON string). Gateway response templates are not VTL: only
   * simple substitution, so nothing from the request is echoed (a path could break the JSON).
   */
  readonly message: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What API Gateway answers itself, in the `{"error": {"code", "message", "details"}}` shape of
 * every other answer (docs/node-api.md, docs/openapi.json), so the deployed API and `npm start` agree.
 * An unknown path, or a method a path is not served with, reaches no function: API Gateway calls
 * that MISSING_AUTHENTICATION_TOKEN (a 403 by default); `npm start` answers it 404
 * route_not_found (405 method_not_allowed for a known path: a gateway response cannot tell the
 * two apart).
 */
export const gatewayAnswers: readonly GatewayAnswer[] = [
  {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    status: 404,
    code: 'route_not_found',
    message: 'No route serves this method and path; docs/openapi.json lists the routes.',
  },
  {
    type: ResponseType.RESOURCE_NOT_FOUND,
    status: 404,
    code: 'route_not_found',
    message: 'No route serves this method and path; docs/openapi.json lists the routes.',
  },
  {
    type: ResponseType.THROTTLED,
    status: 429,
    code: 'rate_limited',
    message:
      'The API is over its request rate (the stage throttle); retry after Retry-After seconds.',
    headers: { 'Retry-After': '1' },
  },
  {
    type: ResponseType.REQUEST_TOO_LARGE,
    status: 413,
    code: 'payload_too_large',
    message: 'The request is larger than API Gateway accepts.',
  },
  {
    type: ResponseType.UNSUPPORTED_MEDIA_TYPE,
    status: 415,
    code: 'unsupported_media_type',
    message: 'The request’s Content-Type is not accepted.',
  },
  {
    type: ResponseType.INTEGRATION_TIMEOUT,
    status: 504,
    code: 'gateway_timeout',
    message:
      'The function did not answer within API Gateway’s wait. Resend with the same request_id: ' +
      'a turn that finished is answered from its record.',
  },
  { type: ResponseType.DEFAULT_4XX, status: null, code: 'request_refused', message: null },
  { type: ResponseType.DEFAULT_5XX, status: null, code: 'gateway_error', message: null },
];

/** The body template of `answer`: our error shape, with API Gateway's message where it has one. */
export function gatewayBodyTemplate(answer: GatewayAnswer): string {
  const message =
    answer.message === null ? '$context.error.messageString' : JSON.stringify(answer.message);
  return `{"error": {"code": ${JSON.stringify(answer.code)}, "message": ${message}, "details": []}}`;
}

/** Adds every answer of `gatewayAnswers` to `api`. */
export function addGatewayResponses(api: RestApi): void {
  for (const answer of gatewayAnswers) {
    api.addGatewayResponse(answer.type.responseType, {
      type: answer.type,
      ...(answer.status === null ? {} : { statusCode: String(answer.status) }),
      responseHeaders: Object.fromEntries(
        Object.entries({ 'Content-Type': 'application/json', ...answer.headers }).map(
          ([name, value]) => [name, `'${value}'`],
        ),
      ),
      templates: { 'application/json': gatewayBodyTemplate(answer) },
    });
  }
}
