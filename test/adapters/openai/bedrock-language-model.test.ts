import { describe, expect, it } from 'vitest';
import { OpenAiLanguageModel } from '../../../shared/adapters/openai';
import type { AwsCredentialsProvider } from '../../../shared/adapters/openai/bedrock-signing-fetch';
import { ERROR_REPLY_LIMIT_BYTES } from '../../../shared/adapters/system/body-reads';
import { type ScriptStep, startScriptedLlmServer } from '../../support/scripted-llm-server';
import { TEST_AWS_CREDENTIALS } from '../../support/sigv4-verifier';
import { useLoopbackServer } from '../../support/use-loopback-server';
import { failureOf, requestOf, userAsks } from './model-under-test';

const REGION = 'eu-west-1';
/** A loopback server standing in for Bedrock's Mantle endpoint in eu-west-1. */
const bedrock = useLoopbackServer('bedrock stand-in', () =>
  startScriptedLlmServer({
    sigV4: { region: REGION, service: 'bedrock-mantle', credentials: TEST_AWS_CREDENTIALS },
  }),
);
const request = requestOf([userAsks('Weather in LA?')]);
const staticCredentials: AwsCredentialsProvider = async () => TEST_AWS_CREDENTIALS;

const bedrockModel = (
  options: { region?: string; credentials?: AwsCredentialsProvider; model?: string } = {},
) =>
  new OpenAiLanguageModel({
    baseURL: bedrock.baseURL,
    apiKey: '',
    model: options.model ?? 'openai.gpt-oss-20b',
    bedrock: {
      region: options.region ?? REGION,
      credentials: options.credentials ?? staticCredentials,
    },
    thinking: { thinking: 'off', server: 'auto' },
    backoff: { baseDelayMs: 1, maxDelayMs: 4, maxAttempts: 3 },
  });

describe('OpenAiLanguageModel through Bedrock (SigV4)', () => {
  it('signs every request for bedrock-mantle in its region, and sends no key', async () => {
    // Prepare
    bedrock.enqueue({ reply: { content: 'Sunny.' } });

    // Act
    const reply = await bedrockModel().complete(request, { timeoutMs: 5_000 });

    // Assess
    expect(reply.content).toBe('Sunny.');
    expect(bedrock.signatureFailures).toEqual([]);
    const sent = bedrock.requests[0];
    expect(sent?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIATESTBEDROCK7Q2Z\/\d{8}\/eu-west-1\/bedrock-mantle\/aws4_request, /,
    );
    expect(sent?.headers['x-amz-security-token']).toBe(TEST_AWS_CREDENTIALS.sessionToken);
  });

  it('asks gpt-oss for its lowest reasoning effort with MODEL_THINKING=off (its documented form)', async () => {
    bedrock.enqueue({ reply: { content: 'Sunny.' } });

    await bedrockModel().complete(request, { timeoutMs: 5_000 });

    expect(bedrock.requests[0]?.body).toMatchObject({
      model: 'openai.gpt-oss-20b',
      reasoning_effort: 'low',
    });
    expect(bedrock.requests[0]?.body).not.toHaveProperty('chat_template_kwargs');
  });

  it('sends no reasoning field to a model whose Bedrock page documents none', async () => {
    bedrock.enqueue({ reply: { content: 'Sunny.' } });

    await bedrockModel({ model: 'qwen.qwen3-32b' }).complete(request, { timeoutMs: 5_000 });

    expect(bedrock.requests[0]?.body).not.toHaveProperty('reasoning_effort');
    expect(bedrock.requests[0]?.body).not.toHaveProperty('chat_template_kwargs');
  });

  it('is refused when it signs with another secret: the stand-in recomputes the signature', async () => {
    bedrock.enqueue({ reply: { content: 'Sunny.' } });
    const wrongSecret: AwsCredentialsProvider = async () => ({
      ...TEST_AWS_CREDENTIALS,
      secretAccessKey: 'another-secret',
    });

    const error = await failureOf(
      bedrockModel({ credentials: wrongSecret }).complete(request, { timeoutMs: 5_000 }),
    );

    expect(bedrock.signatureFailures).toEqual(['the signature does not match']);
    expect(error.failure).toBe('credentials_rejected');
  });

  it('is refused when it signs for another region: the stand-in really checks', async () => {
    bedrock.enqueue({ reply: { content: 'Sunny.' } });

    const error = await failureOf(
      bedrockModel({ region: 'us-east-1' }).complete(request, { timeoutMs: 5_000 }),
    );

    expect(bedrock.signatureFailures).toEqual(['signed for region us-east-1']);
    expect(error.failure).toBe('credentials_rejected');
    expect(error.attempts).toBe(1);
  });
});

const awsError = (status: number, type: string, message: string): ScriptStep => ({
  status,
  body: { message },
  headers: { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.coral/` },
});

const openAiShaped = (status: number, message: string, code: string): ScriptStep => ({
  status,
  body: { error: { message, type: code, code } },
});

describe('Bedrock refusals: each its own failure, and a fix in the message', () => {
  it.each<[string, ScriptStep, string, RegExp]>([
    [
      'an expired role session',
      awsError(
        403,
        'ExpiredTokenException',
        'The security token included in the request is expired',
      ),
      'credentials_rejected',
      /refresh them \(aws sso login/,
    ],
    [
      'an unknown access key',
      awsError(
        403,
        'UnrecognizedClientException',
        'The security token included in the request is invalid.',
      ),
      'credentials_rejected',
      /function's role/,
    ],
    [
      'a role without the IAM action',
      awsError(
        403,
        'AccessDeniedException',
        'User: arn:aws:sts::123456789012:assumed-role/jcc-fn/jcc is not authorized to perform: bedrock-mantle:CreateInference on resource: arn:aws:bedrock-mantle:eu-west-1:123456789012:project/default',
      ),
      'permission_denied',
      /allow the IAM action bedrock-mantle:CreateInference/,
    ],
    [
      'a model the account was not given',
      openAiShaped(
        403,
        "You don't have access to the model with the specified model ID.",
        'access_denied',
      ),
      'model_access_denied',
      /Bedrock console \(Model access\) of eu-west-1/,
    ],
    [
      'a model not enabled for the account (401)',
      openAiShaped(
        401,
        'Model openai.gpt-oss-20b is not enabled for this account',
        'access_denied',
      ),
      'model_access_denied',
      /Model access/,
    ],
  ])('%s', async (_case, step, failure, fix) => {
    bedrock.enqueue(step, { reply: { content: 'never asked' } });

    const error = await failureOf(bedrockModel().complete(request, { timeoutMs: 5_000 }));

    expect(error.failure).toBe(failure);
    expect(error.attempts).toBe(1);
    expect(error.message).toMatch(fix);
    expect(error.message).not.toContain(TEST_AWS_CREDENTIALS.secretAccessKey);
    expect(error.message).not.toContain(TEST_AWS_CREDENTIALS.sessionToken);
    expect(error.message).not.toContain('Signature=');
  });

  it('retries a throttle, then fails as rate_limited', async () => {
    const throttled = awsError(429, 'ThrottlingException', 'Too many requests, please wait.');
    bedrock.enqueue(throttled, throttled, throttled);

    const error = await failureOf(bedrockModel().complete(request, { timeoutMs: 5_000 }));

    expect(error.failure).toBe('rate_limited');
    expect(error.attempts).toBe(3);
  });

  it('reads an error reply over 16 KiB as the refusal its status says, not a lost connection', async () => {
    // Prepare: an AWS-shaped 400 whose message runs past the error reply limit.
    const message = 'm'.repeat(ERROR_REPLY_LIMIT_BYTES);
    bedrock.enqueue(
      { status: 400, rawBody: JSON.stringify({ message }) },
      { reply: { content: 'never asked' } },
    );

    // Act
    const error = await failureOf(bedrockModel().complete(request, { timeoutMs: 5_000 }));

    // Assess: refused, not retried; its words are the limit's, none of the body's.
    expect(error.failure).toBe('rejected');
    expect(error.attempts).toBe(1);
    expect(error.message).toContain(`over ${ERROR_REPLY_LIMIT_BYTES} bytes`);
    expect(error.message).not.toContain('mmmm');
  });

  it('sends nothing when no credentials can be found, and says where to get them', async () => {
    const none: AwsCredentialsProvider = async () => {
      throw new Error('Could not load credentials from any providers');
    };

    const error = await failureOf(
      bedrockModel({ credentials: none }).complete(request, { timeoutMs: 5_000 }),
    );

    expect(error.failure).toBe('credentials_rejected');
    expect(error.attempts).toBe(1);
    expect(error.message).toMatch(/Could not load credentials.*To fix: give the function a role/);
    expect(bedrock.requests).toHaveLength(0);
  });
});
