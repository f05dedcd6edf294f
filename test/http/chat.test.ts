import { describe, expect, it } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import type { ChatCompletion } from '../../functions/http/contract/chat-completion-schema';
import { useLocalStack } from '../support/local-stack-harness';
import { chatCompletionModel, strictClientProblems } from '../support/strict-node-models';
import { textReply } from './http-fixtures';

const harness = useLocalStack();
const CHAT = routePath('chat');

/** What `chat_text` of the node sends: its whole prompt as one system message. */
const ROUTINE_PROMPT =
  '/no_think\nGood morning routine. Here are the results from each step:\n' +
  '{"weather": {"message": "Sunny, high of 24."}}\n\nRespond in 1-2 short spoken sentences.';
const nodeBody = { messages: [{ role: 'system', content: ROUTINE_PROMPT }] };

interface EmfLine {
  readonly route?: string;
  readonly [metric: string]: unknown;
}

/** The embedded-metric-format lines of the `chat` route written since `from`. */
function chatMetricsSince(from: number): EmfLine[] {
  return harness.output
    .slice(from)
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{"_aws"'))
    .map((line) => JSON.parse(line) as EmfLine)
    .filter((line) => line.route === 'chat');
}

describe('POST /api/v0/chat', () => {
  it('sends the node’s messages as they are, with no tools, and answers the completion body it parses', async () => {
    // Prepare
    harness.llm.enqueue(
      textReply('<think>Sunny, so keep it short.</think>\nSunny today, with a high of 24.'),
    );

    // Act
    const response = await harness.client().post(CHAT, nodeBody);

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(strictClientProblems(chatCompletionModel, response.json)).toEqual([]);
    const body = response.json as ChatCompletion;
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'scripted',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Sunny today, with a high of 24.' },
          finish_reason: 'stop',
        },
      ],
    });
    expect(body.id).toMatch(/^chatcmpl-\S+$/);
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(3_600);
    const [sent, ...more] = harness.llm.requests;
    expect(more).toEqual([]);
    expect(sent?.body?.messages).toEqual(nodeBody.messages);
    expect(sent?.body).not.toHaveProperty('tools');
    expect(sent?.body).not.toHaveProperty('tool_choice');
    expect(sent?.body).toMatchObject({ model: 'scripted', max_tokens: 1024 });
    expect(harness.llm.protocolViolations).toEqual([]);
  });

  it('keeps the order and roles of a longer exchange, and the max_tokens the node asks for', async () => {
    // Prepare
    const messages = [
      { role: 'system', content: 'Answer in one sentence.' },
      { role: 'user', content: 'What is a haiku?' },
      { role: 'assistant', content: 'A short Japanese poem.' },
      { role: 'user', content: 'How many syllables?' },
    ];
    harness.llm.enqueue(textReply('Seventeen, in three lines of five, seven and five.'));

    // Act
    const response = await harness.client().post(CHAT, { messages, max_tokens: 64 });

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(harness.llm.requests[0]?.body?.messages).toEqual(messages);
    expect(harness.llm.requests[0]?.body).toMatchObject({ max_tokens: 64 });
  });

  it('hands back a reply cut off at max_tokens as the model sent it, finish_reason length', async () => {
    // Prepare
    harness.llm.enqueue({ reply: { content: 'Today will be sunny and', finish_reason: 'length' } });

    // Act
    const response = await harness.client().post(CHAT, nodeBody);

    // Assess
    expect(response.status).toBe(200);
    expect((response.json as ChatCompletion).choices[0]).toMatchObject({
      message: { content: 'Today will be sunny and' },
      finish_reason: 'length',
    });
  });

  it('answers an empty text, never the reasoning, when the model was cut off while thinking', async () => {
    // Prepare
    harness.llm.enqueue({ reply: { content: '<think>The user wants', finish_reason: 'length' } });

    // Act
    const response = await harness.client().post(CHAT, nodeBody);

    // Assess
    expect(response.status).toBe(200);
    expect((response.json as ChatCompletion).choices[0]?.message.content).toBe('');
  });

  it('is counted like a turn: its model call and the tokens the server reported, under route chat', async () => {
    // Prepare
    const from = harness.output.length;
    const usage = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };
    harness.llm.enqueue({
      rawBody: JSON.stringify({
        id: 'chatcmpl-upstream',
        object: 'chat.completion',
        created: 1,
        model: 'upstream-name',
        choices: [
          { index: 0, message: { role: 'assistant', content: 'Sunny.' }, finish_reason: 'stop' },
        ],
        usage: { ...usage, prompt_tokens_details: { cached_tokens: 96 } },
      }),
    });

    // Act
    const response = await harness.client().post(CHAT, nodeBody);

    // Assess
    expect((response.json as ChatCompletion).usage).toEqual(usage);
    const [line, ...others] = chatMetricsSince(from);
    expect(others).toEqual([]);
    expect(line).toMatchObject({
      model_calls: 1,
      prompt_tokens: 120,
      completion_tokens: 30,
      cached_tokens: 96,
      chat_cut_off: 0,
      latency: expect.any(Number),
    });
  });

  it('counts a model failure as a 502 of route chat', async () => {
    // Prepare
    const from = harness.output.length;
    harness.llm.enqueue({ status: 500, headers: { 'x-should-retry': 'false' } });

    // Act
    const response = await harness.client().post(CHAT, nodeBody);

    // Assess
    expect(response.status).toBe(502);
    expect(chatMetricsSince(from)).toEqual([expect.objectContaining({ status_502: 1 })]);
  });
});
