import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { BEDROCK_TEST_MODEL, useLocalStack } from '../support/local-stack-harness';
import { describeExchanges } from './exchange-scenarios';
import { startWithFixture, textReply } from './http-fixtures';

/** The same exchanges with MODEL_PROVIDER=bedrock: the stand-in refuses any unsigned request. */
const harness = useLocalStack({ provider: 'bedrock' });

describeExchanges(harness);

describe('the model through Bedrock', () => {
  it('is asked for the model id, signed for bedrock-mantle, with no key', async () => {
    const client = harness.client();
    const conversationId = await startWithFixture(client, 'bedrock');
    harness.llm.enqueue(textReply('Hello.'));

    const response = await client.post(ROUTES.command, {
      conversation_id: conversationId,
      voice_command: 'hello',
    });

    expect(response.status, response.text).toBe(200);
    const sent = harness.llm.requests.at(-1);
    expect(sent?.body?.model).toBe(BEDROCK_TEST_MODEL);
    expect(sent?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=.*\/bedrock-mantle\//,
    );
  });
});
