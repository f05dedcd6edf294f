import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/**
 * The API Gateway REST (v1) proxy event AWS would send for this request, as `sam local
 * start-api` builds it: single- and multi-value headers, the resource path, a request context.
 * A body whose Content-Type is one of `binaryMediaTypes` arrives base64-encoded with
 * `isBase64Encoded`, as API Gateway sends it; any other as UTF-8 text.
 */
export function toApiGatewayEvent(request: {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly sourceIp: string;
  readonly binaryMediaTypes?: readonly string[];
}): APIGatewayProxyEvent {
  const binary = isBinary(request.headers['content-type'], request.binaryMediaTypes ?? []);
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    headers[name] = values.join(',');
    multiValueHeaders[name] = values;
  }
  const query = request.query.size === 0 ? null : Object.fromEntries(request.query);
  const multiQuery = request.query.size === 0 ? null : groupQuery(request.query);
  const now = new Date();
  return {
    resource: request.path,
    path: request.path,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    queryStringParameters: query,
    multiValueQueryStringParameters: multiQuery,
    pathParameters: null,
    stageVariables: null,
    body: request.body.length === 0 ? null : request.body.toString(binary ? 'base64' : 'utf8'),
    isBase64Encoded: binary && request.body.length > 0,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: request.method,
      path: `/local${request.path}`,
      stage: 'local',
      requestId: randomUUID(),
      requestTimeEpoch: now.getTime(),
      resourceId: 'local',
      resourcePath: request.path,
      identity: localIdentity(request.sourceIp),
    },
  };
}

/** A Lambda context good enough for middy and Powertools (they read names, ids and time left). */
export function localLambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const requestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:123456789012:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function isBinary(contentType: string | undefined, binaryMediaTypes: readonly string[]): boolean {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType !== '' && binaryMediaTypes.includes(mediaType);
}

function groupQuery(query: URLSearchParams): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const [name, value] of query) {
    const values = grouped[name] ?? [];
    values.push(value);
    grouped[name] = values;
  }
  return grouped;
}

function localIdentity(sourceIp: string): APIGatewayProxyEvent['requestContext']['identity'] {
  return {
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    sourceIp,
    user: null,
    userAgent: null,
    userArn: null,
  };
}
