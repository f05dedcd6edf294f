import { createHash, createHmac } from 'node:crypto';
import type { MessageHeaders } from '@smithy/eventstream-codec';
import aws4 from 'aws4';

/** What a stand-in for an AWS endpoint expects of a signature. */
export interface ExpectedSigner {
  readonly region: string;
  readonly service: string;
  readonly credentials: {
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly sessionToken?: string;
  };
}

/** Static test credentials: long and distinctive, so a leak into a log cannot go unnoticed. */
export const TEST_AWS_CREDENTIALS = {
  accessKeyId: 'AKIATESTBEDROCK7Q2Z',
  secretAccessKey: 'test-secret-bedrock-9f8e7d6c5b4a39281706',
  sessionToken: 'test-session-token-bedrock-0a1b2c3d4e5f',
} as const;

/** The request as the server received it: what a signature covers. */
export interface ReceivedRequest {
  readonly method: string;
  /** The path and query, as sent. */
  readonly url: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The payload hash of a request whose body is an event stream of signed events (Transcribe). */
export const SIGNED_EVENTS = 'STREAMING-AWS4-HMAC-SHA256-EVENTS';

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;:-]+), Signature=([0-9a-f]{64})$/;

/**
 * Why `request` is not signed as `expected` asks, or null when it is: the Authorization header
 * is read, then the request is signed again with the `aws4` package (not the signer under test)
 * over the headers it says it signed, and the two signatures compared.
 */
export function signatureProblem(
  request: ReceivedRequest,
  expected: ExpectedSigner,
): string | null {
  const authorization = request.headers.authorization ?? '';
  const match = AUTHORIZATION.exec(authorization);
  if (match === null) return `no SigV4 Authorization header (got ${authorization.slice(0, 20)}...)`;
  const [, keyId, , region, service, signedHeaders = '', signature] = match;
  if (keyId !== expected.credentials.accessKeyId) return `signed with key id ${keyId}`;
  if (region !== expected.region) return `signed for region ${region}`;
  if (service !== expected.service) return `signed for service ${service}`;
  const names = signedHeaders.split(';');
  // Over HTTP/2 the host is the `:authority` pseudo-header, and the AWS SDK signs that.
  if (!names.includes('host') && !names.includes(':authority')) {
    return 'the signature does not cover host';
  }
  if (!names.includes('x-amz-date')) return 'the signature does not cover x-amz-date';
  if (
    expected.credentials.sessionToken !== undefined &&
    request.headers['x-amz-security-token'] !== expected.credentials.sessionToken
  ) {
    return 'the session token is missing';
  }
  // aws4 trusts x-amz-content-sha256 as the body's hash: check it against the body received.
  // An event stream's body is signed event by event: its request signs the marker instead.
  const bodyHash = createHash('sha256').update(request.body, 'utf8').digest('hex');
  const claimed = request.headers['x-amz-content-sha256'];
  if (claimed !== undefined && claimed !== bodyHash && claimed !== SIGNED_EVENTS) {
    return 'the body is not the one signed';
  }
  const headers = Object.fromEntries(names.map((name) => [name, request.headers[name] ?? '']));
  const signer = new aws4.RequestSigner(
    {
      host: request.headers.host ?? '',
      method: request.method,
      path: request.url,
      service: expected.service,
      region: expected.region,
      headers,
      body: request.body,
      doNotModifyHeaders: true,
      // aws4 adds `host` itself; over HTTP/2 `:authority` was signed in its place.
      ...(names.includes('host') ? {} : { extraHeadersToIgnore: { host: true } }),
    },
    expected.credentials,
  );
  signer.prepareRequest();
  // With doNotModifyHeaders aws4 would take the time of the check, not the request's.
  signer.datetime = request.headers['x-amz-date'] ?? '';
  return signer.signature() === signature ? null : 'the signature does not match';
}

/** The signature an Authorization header carries: what seeds an event stream's chunk chain. */
export function authorizationSignature(authorization: string | undefined): string | null {
  return AUTHORIZATION.exec(authorization ?? '')?.[6] ?? null;
}

const hmac = (key: string | Buffer, text: string) =>
  createHmac('sha256', key).update(text, 'utf8').digest();
const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** `20261126T101500Z`: SigV4's date and time, from an event's `:date`. */
const longDate = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * Checks the `:chunk-signature` of each envelope of an event stream signed with SigV4 (Transcribe
 * streaming), written from AWS's description rather than with the signer under test: each
 * envelope signs `AWS4-HMAC-SHA256-PAYLOAD`, its `:date`, the scope, the signature before it (the
 * request's own for the first), the SHA-256 of its `:date` header as encoded and of its payload
 * (the event inside), with the key of that date, region and service. So an event changed,
 * dropped, reordered or signed for something else breaks the chain from there on.
 */
export class EventChunkVerifier {
  readonly #expected: ExpectedSigner;
  readonly #headerBytes: (headers: MessageHeaders) => Uint8Array;
  #prior: string;
  /** Envelopes whose signature matched. */
  verified = 0;

  constructor(
    requestSignature: string,
    expected: ExpectedSigner,
    headerBytes: (headers: MessageHeaders) => Uint8Array,
  ) {
    this.#prior = requestSignature;
    this.#expected = expected;
    this.#headerBytes = headerBytes;
  }

  /** Why the envelope's signature is wrong, or null; a right one is the next envelope's prior. */
  check(headers: MessageHeaders, payload: Uint8Array): string | null {
    const date = headers[':date'];
    const signature = headers[':chunk-signature'];
    if (date?.type !== 'timestamp') return `event ${this.verified + 1} has no :date`;
    if (signature?.type !== 'binary') return `event ${this.verified + 1} has no :chunk-signature`;
    const when = longDate(date.value);
    const day = when.slice(0, 8);
    const { region, service, credentials } = this.#expected;
    const scope = `${day}/${region}/${service}/aws4_request`;
    const stringToSign = [
      'AWS4-HMAC-SHA256-PAYLOAD',
      when,
      scope,
      this.#prior,
      sha256Hex(this.#headerBytes({ ':date': date })),
      sha256Hex(payload),
    ].join('\n');
    let key: Buffer = hmac(`AWS4${credentials.secretAccessKey}`, day);
    for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
    const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
    if (Buffer.from(signature.value).toString('hex') !== expected) {
      return `event ${this.verified + 1}'s :chunk-signature does not match`;
    }
    this.#prior = expected;
    this.verified += 1;
    return null;
  }
}
