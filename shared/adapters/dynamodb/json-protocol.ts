import * as DynamoDbSdk from '@aws-sdk/client-dynamodb';

/** What the SDK puts on every output and exception: the status, request id and retries. */
export interface ResponseMetadata {
  readonly httpStatusCode: number;
  readonly requestId?: string;
  readonly attempts: number;
  readonly totalRetryDelay: number;
}

/**
 * The JSON body of a request: the input as it is, each binary attribute (`B`, the members of a
 * `BS`) as base64. A `Buffer` is turned into `{type, data}` by its `toJSON` before a replacer sees
 * it, so the replacer looks at the value the holder has.
 */
export function requestBody(input: object): string {
  return JSON.stringify(input, function binaryAsBase64(this: unknown, key: string, value: unknown) {
    const original = (this as Record<string, unknown>)[key];
    return original instanceof Uint8Array
      ? Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64')
      : value;
  });
}

/**
 * The reply read as DynamoDB's JSON: an object, or `DynamoDbReplyMalformedError` (a reply cut
 * short by a proxy, an HTML error page).
 */
export function replyDocument(status: number, body: Uint8Array): Record<string, unknown> {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  let parsed: unknown;
  try {
    // A refusal with no body (some 5xx from a load balancer) is an empty document; DynamoDB's
    // success always has one (`{}` at least), so an empty 2xx is a proxy's, not an answer.
    parsed = text === '' && status >= 300 ? {} : JSON.parse(text);
  } catch (error) {
    throw new DynamoDbReplyMalformedError(status, body.byteLength, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new DynamoDbReplyMalformedError(status, body.byteLength);
  }
  return parsed as Record<string, unknown>;
}

/**
 * Replaces, in place, each binary attribute's base64 (`B`, the members of a `BS`) with its bytes,
 * wherever it is in the reply (an item, a list of items, a map inside an attribute). An attribute
 * value is the only object of DynamoDB's JSON whose `B` is a string: an attribute named `B` has an
 * object as its value.
 */
export function decodeBinaryAttributes(value: unknown): void {
  if (Array.isArray(value)) {
    for (const member of value) {
      if (typeof member === 'object' && member !== null) decodeBinaryAttributes(member);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const member = record[key];
    if (typeof member === 'string') {
      if (key === 'B') record.B = bytesOf(member);
    } else if (typeof member === 'object' && member !== null) {
      if (key === 'BS' && Array.isArray(member) && typeof member[0] === 'string') {
        record.BS = member.map((text) => bytesOf(String(text)));
      } else {
        decodeBinaryAttributes(member);
      }
    }
  }
}

/** DynamoDB sends well-formed base64: decoded without the SDK's regular expression over it. */
function bytesOf(base64: string): Uint8Array {
  const bytes = Buffer.from(base64, 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

type ExceptionClass = new (
  options: { message: string; $metadata: ResponseMetadata } & Record<string, unknown>,
) => DynamoDbSdk.DynamoDBServiceException;

/**
 * The SDK's exception classes by their name (`ConditionalCheckFailedException`, …), read from the
 * module rather than imported by name: in Lambda the SDK is the runtime's, and a name it lacks
 * (`ThrottlingException` is recent) would fail the import of the whole bundle. A name the SDK
 * does not know becomes its base class with that name, as the SDK itself does.
 */
const EXCEPTIONS = new Map<string, ExceptionClass>();
for (const [name, exported] of Object.entries(DynamoDbSdk)) {
  if (
    typeof exported === 'function' &&
    exported.prototype instanceof DynamoDbSdk.DynamoDBServiceException
  ) {
    EXCEPTIONS.set(name, exported as unknown as ExceptionClass);
  }
}

/**
 * The error name of a failed reply as the SDK reads it: the body's `__type` (or `code`), else the
 * `x-amzn-errortype` header; `com.amazonaws.dynamodb.v20120810#ThrottlingException` is
 * `ThrottlingException`.
 */
export function errorNameOf(
  document: Record<string, unknown>,
  headers: Readonly<Record<string, string>>,
): string {
  const raw = document.__type ?? document.code ?? headers['x-amzn-errortype'];
  if (typeof raw !== 'string' || raw === '') return 'Unknown';
  const withoutDetail = raw.split(':')[0] ?? raw;
  return withoutDetail.slice(withoutDetail.lastIndexOf('#') + 1);
}

/**
 * The SDK's exception for a failed reply: its class for the name (so `instanceof
 * ConditionalCheckFailedException` holds), the reply's other fields on it (`Item`, the
 * throttling reasons), `$metadata` and `$fault` as the SDK sets them.
 */
export function serviceException(
  name: string,
  document: Record<string, unknown>,
  metadata: ResponseMetadata,
): DynamoDbSdk.DynamoDBServiceException {
  const { __type: _type, message: lower, Message: upper, ...fields } = document;
  const message = typeof lower === 'string' ? lower : typeof upper === 'string' ? upper : name;
  decodeBinaryAttributes(fields);
  const Known = EXCEPTIONS.get(name);
  if (Known !== undefined) return new Known({ ...fields, message, $metadata: metadata });
  const unknown = new DynamoDbSdk.DynamoDBServiceException({
    name,
    $fault: metadata.httpStatusCode >= 500 ? 'server' : 'client',
    $metadata: metadata,
    message,
  });
  return Object.assign(unknown, fields);
}

/**
 * A reply that is not DynamoDB's JSON: a body that does not parse, or is no object. The request
 * may or may not have been carried out; the store turns it into `StorageUnavailableError`.
 */
export class DynamoDbReplyMalformedError extends Error {
  override readonly name = 'DynamoDbReplyMalformedError';
  readonly statusCode: number;
  constructor(statusCode: number, bytes: number, options?: { cause?: unknown }) {
    super(`DynamoDB replied ${statusCode} with ${bytes} bytes that are not a JSON object`, options);
    this.statusCode = statusCode;
  }
}
