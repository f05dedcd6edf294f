import { createHash, createHmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { awsErrorInOpenAiShape } from './aws-error-body';
import { BEDROCK_MANTLE_SERVICE } from './bedrock-endpoint';

/** AWS credentials as the signer takes them; never logged, never part of an error. */
export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly expiration?: Date;
}

/** Resolves the credentials to sign the next request with (the default chain refreshes itself). */
export type AwsCredentialsProvider = () => Promise<AwsCredentials>;

/** Where Bedrock's OpenAI-compatible endpoint is and who signs for it. */
export interface BedrockSigning {
  /** The region of the endpoint: part of every signature. */
  readonly region: string;
  /**
   * The credentials; by default the AWS SDK's chain: the Lambda role's variables, or locally the
   * shell's variables, `~/.aws` profiles (AWS_PROFILE), SSO, a web identity, the instance's role.
   */
  readonly credentials?: AwsCredentialsProvider;
  /** Told every session token the requests carried, to scrub it from errors (SentSecrets). */
  readonly sent?: SentSecrets;
}

/** How many session tokens are remembered: the current one and those it replaced lately. */
const REMEMBERED_TOKENS = 4;

/**
 * The secrets a signed request carried (session tokens; the secret key itself is never sent),
 * so that a server or proxy echoing a request's headers in its error cannot put them in a log;
 * signatures are scrubbed by their form.
 */
export class SentSecrets {
  readonly #tokens: string[] = [];

  remember(token: string): void {
    if (this.#tokens.includes(token)) return;
    this.#tokens.push(token);
    if (this.#tokens.length > REMEMBERED_TOKENS) this.#tokens.shift();
  }

  redact(text: string): string {
    let scrubbed = text.replace(/Signature=[0-9a-f]{64}/g, 'Signature=[redacted]');
    for (const token of this.#tokens) scrubbed = scrubbed.split(token).join('[redacted]');
    return scrubbed;
  }
}

/** No AWS credentials could be found or refreshed: nothing was sent. */
export class AwsCredentialsUnavailableError extends Error {
  override readonly name = 'AwsCredentialsUnavailableError';
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** SHA-256 for the signer, as the AWS SDK's checksum constructor, on node:crypto. */
class Sha256 {
  readonly #hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#hash =
      secret === undefined
        ? createHash('sha256')
        : createHmac('sha256', typeof secret === 'string' ? secret : toBytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#hash.update(typeof data === 'string' ? data : toBytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.#hash.digest()));
  }
}

const toBytes = (data: ArrayBuffer | ArrayBufferView): Uint8Array =>
  ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);

/**
 * A `fetch` for the openai SDK that signs every request with SigV4 for Bedrock's Mantle endpoint,
 * in place of the bearer key the SDK would send. The openai package's own Bedrock provider
 * (`openai/providers/bedrock/aws`) does the same, but loads `@smithy/hash-node`, which this
 * install lacks (docs/decisions/2026-11-26-bedrock.md). Credentials go to `baseURL`'s origin
 * only, and a redirect is never followed with them. AWS-shaped error bodies reach the SDK in the
 * OpenAI shape (aws-error-body.ts).
 */
export function bedrockSigningFetch(baseURL: string, signing: BedrockSigning, inner: Fetch): Fetch {
  const origin = new URL(baseURL).origin;
  const provider = signing.credentials ?? defaultProvider();
  const credentials = async () => {
    try {
      const found = await provider();
      if (found.sessionToken !== undefined) signing.sent?.remember(found.sessionToken);
      return found;
    } catch (error) {
      // The chain's own message names where it looked, never a value.
      const reason = error instanceof Error ? error.message : String(error);
      throw new AwsCredentialsUnavailableError(`no AWS credentials to sign with: ${reason}`);
    }
  };
  const signer = new SignatureV4({
    credentials,
    region: signing.region,
    service: BEDROCK_MANTLE_SERVICE,
    sha256: Sha256,
  });
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.origin !== origin) {
      throw new Error(`refusing to sign a request to ${url.origin}: only ${origin} is Bedrock's`);
    }
    const headers = new Headers(init.headers);
    // The SDK's placeholder bearer key: the signature is the only authorization sent.
    for (const name of ['authorization', 'x-amz-date', 'x-amz-security-token']) {
      headers.delete(name);
    }
    headers.set('host', url.host);
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== 'string') {
      throw new Error('the Bedrock signer signs JSON bodies only');
    }
    const signed = await signer.sign({
      method: (init.method ?? 'GET').toUpperCase(),
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(headers),
      ...(typeof body === 'string' ? { body } : {}),
    });
    const response = await inner(url, {
      ...init,
      headers: new Headers(Object.entries(signed.headers)),
      redirect: 'manual',
    });
    return awsErrorInOpenAiShape(response);
  };
}
