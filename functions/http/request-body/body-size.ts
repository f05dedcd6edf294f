import type { APIGatewayProxyEvent } from 'aws-lambda';
import { HttpError } from '../errors/http-error';

/**
 * A 413 before anything is parsed when the body is larger than `limitBytes`, measured in bytes as
 * sent (a base64-encoded body as the bytes it stands for). `what` names the body in the message:
 * the JSON guard's "body", the recording's "upload".
 */
export function refuseLargerThan(
  event: APIGatewayProxyEvent,
  limitBytes: number,
  what: 'body' | 'upload',
): void {
  const bytes = Buffer.byteLength(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (bytes > limitBytes) throw payloadTooLarge(limitBytes, bytes, what);
}

/** The 413 of a body over its limit (the local server sends it before reading such a body). */
export function payloadTooLarge(
  limitBytes: number,
  receivedBytes: number,
  what: 'body' | 'upload',
): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `The ${what} is larger than ${limitBytes} bytes.`,
    [{ limit_bytes: limitBytes, received_bytes: receivedBytes }],
  );
}
