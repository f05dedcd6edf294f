import { createHash, createHmac } from 'node:crypto';
import { EventStreamCodec, HeaderMarshaller, type MessageHeaders } from '@smithy/eventstream-codec';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { EventChunkVerifier, TEST_AWS_CREDENTIALS } from '../../support/sigv4-verifier';

const utf8 = {
  decode: (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8'),
  encode: (text: string) => new Uint8Array(Buffer.from(text, 'utf8')),
};
const headerMarshaller = new HeaderMarshaller(utf8.decode, utf8.encode);
const codec = new EventStreamCodec(utf8.decode, utf8.encode);
const SIGNER = { region: 'eu-west-1', service: 'transcribe', credentials: TEST_AWS_CREDENTIALS };
/** What the request's Authorization signed: the first envelope chains from it. */
const REQUEST_SIGNATURE = 'ab'.repeat(32);

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: SourceData) =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** SHA-256 and HMAC-SHA-256 as the smithy signer takes them. */
class NodeSha256 {
  readonly #hash;
  constructor(secret?: SourceData) {
    this.#hash =
      secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceData): void {
    this.#hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }
}

interface Envelope {
  readonly headers: MessageHeaders;
  readonly payload: Uint8Array;
}

/**
 * Envelopes signed as the AWS SDK signs Transcribe's audio (SignatureV4.signMessage, chained
 * from `prior`), for `region`: the reference the stand-in's own check is held to.
 */
async function signedEnvelopes(
  payloads: readonly Uint8Array[],
  options: { prior?: string; region?: string } = {},
): Promise<Envelope[]> {
  const signer = new SignatureV4({
    credentials: TEST_AWS_CREDENTIALS,
    region: options.region ?? SIGNER.region,
    service: SIGNER.service,
    sha256: NodeSha256,
  });
  let prior = options.prior ?? REQUEST_SIGNATURE;
  const envelopes: Envelope[] = [];
  for (const [index, payload] of payloads.entries()) {
    const date = new Date(Date.UTC(2026, 10, 26, 10, 15, index));
    const dateHeader: MessageHeaders = { ':date': { type: 'timestamp', value: date } };
    const signed = await signer.sign(
      { message: { headers: dateHeader, body: payload }, priorSignature: prior },
      { signingDate: date },
    );
    prior = signed.signature;
    const signature = new Uint8Array(Buffer.from(signed.signature, 'hex'));
    // Through the codec and back, as the stand-in receives them.
    const decoded = codec.decode(
      codec.encode({
        headers: { ...dateHeader, ':chunk-signature': { type: 'binary', value: signature } },
        body: payload,
      }),
    );
    envelopes.push({ headers: decoded.headers, payload: decoded.body });
  }
  return envelopes;
}

/** The first problem the stand-in's check finds in `envelopes`, or null. */
function firstProblem(envelopes: readonly Envelope[]): string | null {
  const verifier = new EventChunkVerifier(REQUEST_SIGNATURE, SIGNER, (headers) =>
    headerMarshaller.format(headers),
  );
  for (const { headers, payload } of envelopes) {
    const problem = verifier.check(headers, payload);
    if (problem !== null) return problem;
  }
  return null;
}

const audio = (byte: number) => new Uint8Array(64).fill(byte);
const PAYLOADS = [audio(1), audio(2), audio(3), new Uint8Array(0)];

describe("the Transcribe stand-in's check of each event's :chunk-signature", () => {
  it('passes a stream signed as AWS signs it, the empty end included', async () => {
    expect(firstProblem(await signedEnvelopes(PAYLOADS))).toBeNull();
  });

  it.each<[string, (envelopes: Envelope[]) => Envelope[]]>([
    [
      'an event whose audio changed',
      (envelopes) =>
        envelopes.map((envelope, index) =>
          index === 1 ? { ...envelope, payload: audio(9) } : envelope,
        ),
    ],
    ['an event dropped', (envelopes) => envelopes.filter((_, index) => index !== 1)],
    ['two events swapped', ([first, second, ...rest]) => [second, first, ...rest] as Envelope[]],
    [
      'an event whose :date changed',
      (envelopes) =>
        envelopes.map((envelope, index) =>
          index === 2
            ? {
                ...envelope,
                headers: {
                  ...envelope.headers,
                  ':date': { type: 'timestamp', value: new Date(Date.UTC(2026, 10, 27)) },
                },
              }
            : envelope,
        ),
    ],
    [
      'an event with no signature',
      (envelopes) =>
        envelopes.map((envelope, index) =>
          index === 0 ? { ...envelope, headers: { ':date': envelope.headers[':date'] } } : envelope,
        ) as Envelope[],
    ],
  ])('refuses %s', async (_, tamper) => {
    // Prepare
    const envelopes = tamper(await signedEnvelopes(PAYLOADS));

    // Act
    const problem = firstProblem(envelopes);

    // Assess
    expect(problem).toMatch(/:chunk-signature|:date/);
  });

  it.each([
    ['chained from another request', { prior: 'cd'.repeat(32) }],
    ['signed for another region', { region: 'us-east-1' }],
  ])('refuses a stream %s', async (_, options) => {
    expect(firstProblem(await signedEnvelopes(PAYLOADS, options))).toBe(
      "event 1's :chunk-signature does not match",
    );
  });
});
