import { beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { BEDROCK_TEST_REGION, useLocalStack } from '../support/local-stack-harness';
import type { RecordedRequest, ScriptStep } from '../support/scripted-llm-server';
import { TEST_AWS_CREDENTIALS } from '../support/sigv4-verifier';
import { expectError } from './response-contract';
import { expectValidRequestWorks, pendingConversation } from './route-recovery';

const harness = useLocalStack({ provider: 'bedrock' });
let conversationId = '';
beforeEach(async () => {
  conversationId = await pendingConversation(harness.client(), harness.llm, 'bedrock-refusal');
  harness.llm.reset();
});

/** An AWS-shaped refusal that echoes the request's signature and token, as a careless proxy may. */
const awsRefusal =
  (status: number, type: string, message: string) =>
  (request: RecordedRequest): ScriptStep => ({
    status,
    headers: { 'x-amzn-errortype': type },
    body: {
      message: `${message} (request: ${request.headers.authorization} ${request.headers['x-amz-security-token']})`,
    },
  });

const fiveTimes = (step: ScriptStep): ScriptStep[] => Array.from({ length: 5 }, () => step);

describe('Bedrock refusing the model call: a code of its own, and a log line saying what to fix', () => {
  it.each<[string, readonly ScriptStep[], string, string]>([
    [
      'the role may not call the model',
      [
        awsRefusal(
          403,
          'AccessDeniedException',
          'User: arn:aws:sts::123456789012:assumed-role/jcc is not authorized to perform: bedrock-mantle:CreateInference',
        ),
      ],
      'llm_permission_denied',
      'allow the IAM action bedrock-mantle:CreateInference',
    ],
    [
      'the account has no access to the model',
      [
        awsRefusal(
          403,
          'AccessDeniedException',
          "You don't have access to the model with the specified model ID.",
        ),
      ],
      'llm_model_access_denied',
      `Bedrock console (Model access) of ${BEDROCK_TEST_REGION}`,
    ],
    [
      'the role session expired',
      [
        awsRefusal(
          403,
          'ExpiredTokenException',
          'The security token included in the request is expired',
        ),
      ],
      'llm_credentials_rejected',
      'refresh them',
    ],
    [
      'throttling on every attempt',
      fiveTimes({
        status: 429,
        headers: { 'x-amzn-errortype': 'ThrottlingException', 'retry-after-ms': '1' },
        body: { message: 'Too many requests, please wait before trying again.' },
      }),
      'llm_throttled',
      'rate limiting',
    ],
  ])('%s', async (_case, steps, code, fix) => {
    // Prepare
    const outputBefore = harness.output.length;
    harness.llm.enqueue(...steps);

    // Act
    const response = await harness.client().post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: 'what is the weather',
    });
    const written = harness.output.slice(outputBefore).join('');

    // Assess
    const error = expectError(response, 502, code);
    expect(harness.llm.requests).toHaveLength(steps.length);
    const logged = written.split('\n').find((line) => line.includes(`"code":"${code}"`));
    expect(logged, written).toBeDefined();
    expect(logged).toContain(fix);
    for (const text of [written, response.text]) {
      expect(text).not.toContain(TEST_AWS_CREDENTIALS.secretAccessKey);
      expect(text).not.toContain(TEST_AWS_CREDENTIALS.sessionToken);
      expect(text).not.toMatch(/Signature=[0-9a-f]{64}/);
    }
    expect(error.error.message).not.toContain('arn:aws');
    await expectValidRequestWorks(
      harness.client(),
      harness.llm,
      'command',
      conversationId,
      'what is the weather',
    );
  });
});
