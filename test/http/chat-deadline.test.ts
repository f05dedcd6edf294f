import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { useLocalStack } from '../support/local-stack-harness';
import { textReply } from './http-fixtures';
import { expectError } from './response-contract';

/** Short, yet far above a scripted reply even on a busy machine; the scripted model hangs well past it. */
const DEADLINE_MS = 2_000;
const harness = useLocalStack({ env: { TURN_DEADLINE_MS: String(DEADLINE_MS) } });
const CHAT = routePath('chat');
const body = { messages: [{ role: 'system', content: 'Summarise: sunny, 24 C.' }] };

describe('POST /api/v0/chat within the turn deadline', () => {
  it('answers 504 turn_timeout when the model does not answer within TURN_DEADLINE_MS; the next chat works', async () => {
    // Prepare
    harness.llm.enqueue({ hangMs: DEADLINE_MS * 10 });

    // Act
    const response = await harness.client().post(CHAT, body);

    // Assess
    const error = expectError(response, 504, 'turn_timeout');
    expect(error.error.details).toEqual([
      {
        deadline_ms: DEADLINE_MS,
        model_calls: 1,
        elapsed_ms: null,
        suggested_deadline_ms: expect.any(Number),
      },
    ]);
    harness.llm.enqueue(textReply('Sunny, 24 degrees.'));
    expect((await harness.client().post(CHAT, body)).status).toBe(200);
  });
});
