import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import {
  type ExpectedSigner,
  signatureProblem,
  TEST_AWS_CREDENTIALS,
} from '../../support/sigv4-verifier';

const expected: ExpectedSigner = {
  region: 'eu-west-1',
  service: 'bedrock-mantle',
  credentials: TEST_AWS_CREDENTIALS,
};

/** The AWS SDK's checksum shape: a hash, or an HMAC when given a key. */
class Sha256 {
  readonly #hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#hash =
      secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#hash.update(bytesOf(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.#hash.digest()));
  }
}

const bytesOf = (data: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

/** A request signed by the AWS SDK's signer at `signingDate`, as the stand-in receives it. */
async function signedAt(signingDate: Date, body = '{"model":"m"}') {
  const signer = new SignatureV4({
    credentials: TEST_AWS_CREDENTIALS,
    region: expected.region,
    service: expected.service,
    sha256: Sha256,
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 8080,
      path: '/v1/chat/completions',
      query: {},
      headers: { host: '127.0.0.1:8080', 'content-type': 'application/json' },
      body,
    },
    { signingDate },
  );
  return { method: 'POST', url: '/v1/chat/completions', headers: signed.headers, body };
}

// The stand-in's own check, against the AWS SDK's signer: it must neither refuse a good
// signature nor take a bad one, or the Bedrock tests prove nothing.
describe('signatureProblem (the Bedrock stand-in checking SigV4 with aws4)', () => {
  it('takes a request signed a minute before it is checked (its own x-amz-date, not the clock)', async () => {
    const request = await signedAt(new Date(Date.now() - 60_000));

    expect(signatureProblem(request, expected)).toBeNull();
  });

  it('takes a request signed now', async () => {
    const request = await signedAt(new Date());

    expect(signatureProblem(request, expected)).toBeNull();
  });

  it('refuses a body other than the one signed', async () => {
    const request = await signedAt(new Date());

    expect(signatureProblem({ ...request, body: '{"model":"other"}' }, expected)).toBe(
      'the body is not the one signed',
    );
  });

  it('refuses a signed header changed on the way', async () => {
    const request = await signedAt(new Date());
    const headers = { ...request.headers, 'content-type': 'text/plain' };

    expect(signatureProblem({ ...request, headers }, expected)).toBe(
      'the signature does not match',
    );
  });
});
