import { createSocket, type Socket } from 'node:dgram';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDynamoDbClient } from '../../../shared/adapters/dynamodb';
import { OpenAiLanguageModel } from '../../../shared/adapters/openai';
import { traceContext, traced } from '../../../shared/adapters/tracing/xray-subsegments';
import { DYNALITE_REGION, useDynalite } from '../../support/dynalite';
import { useScriptedLlmServer } from '../../support/use-scripted-llm-server';

const TRACE = '1-5759e988-bd862e3fe1be46a994272793';
const PARENT = '53995c3f42cd8ad8';
const database = useDynalite();
const llm = useScriptedLlmServer();

/** A stand-in for the X-Ray daemon on loopback: every document it is sent. */
let daemon: Socket;
const received: Record<string, unknown>[] = [];
beforeAll(async () => {
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    const [header, body] = message.toString('utf8').split('\n');
    expect(JSON.parse(header ?? '')).toEqual({ format: 'json', version: 1 });
    received.push(JSON.parse(body ?? ''));
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
});
afterAll(() => daemon.close());
afterEach(() => {
  vi.unstubAllEnvs();
  received.length = 0;
});

function traceInvocation(sampled: '0' | '1' = '1'): void {
  vi.stubEnv('_X_AMZN_TRACE_ID', `Root=${TRACE};Parent=${PARENT};Sampled=${sampled}`);
  vi.stubEnv('AWS_XRAY_DAEMON_ADDRESS', `127.0.0.1:${daemon.address().port}`);
}
const documents = async (count: number) => {
  await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(count));
  return received;
};

describe('X-Ray subsegments of a traced invocation', () => {
  it('reports each DynamoDB call as its own subsegment, under the invocation', async () => {
    traceInvocation();
    const client = createDynamoDbClient({ region: DYNALITE_REGION, endpoint: database().endpoint });

    await client.send(
      new GetItemCommand({
        TableName: database().tableName,
        Key: { pk: { S: 'NODE#x' }, sk: { S: 'NODE' } },
      }),
    );

    const [document] = await documents(1);
    expect(document).toMatchObject({
      name: 'DynamoDB GetItem',
      namespace: 'aws',
      type: 'subsegment',
      trace_id: TRACE,
      parent_id: PARENT,
      aws: { operation: 'GetItemCommand', table_name: database().tableName },
    });
    expect(Number(document?.end_time)).toBeGreaterThanOrEqual(Number(document?.start_time));
    client.destroy();
  });

  it('reports the model call with its URL, and marks a failed one as a fault, never its key', async () => {
    traceInvocation();
    llm.enqueue({ reply: { content: 'Hi.' } }, { status: 400 });
    const model = new OpenAiLanguageModel({
      baseURL: llm.baseURL,
      apiKey: 'sk-trace-secret',
      model: 'scripted',
    });
    const request = {
      messages: [{ role: 'user' as const, content: 'hi' }],
      tools: [],
      toolChoice: 'auto' as const,
    };

    await model.complete(request, { timeoutMs: 5_000 });
    await model.complete(request, { timeoutMs: 5_000 }).catch(() => undefined);

    const [ok, failed] = await documents(2);
    expect(ok).toMatchObject({
      name: 'model scripted',
      namespace: 'remote',
      http: { request: { url: `${llm.baseURL}/chat/completions`, method: 'POST' } },
    });
    expect(ok).not.toHaveProperty('fault');
    expect(failed).toMatchObject({ name: 'model scripted', fault: true });
    expect(JSON.stringify(received)).not.toContain('sk-trace-secret');
  });

  it('sends nothing for an invocation that is not sampled, and the call still answers', async () => {
    traceInvocation('0');

    const answer = await traced({ name: 'x', namespace: 'remote' }, async () => 42);
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(answer).toBe(42);
    expect(received).toEqual([]);
  });
});

describe('traceContext', () => {
  it.each([
    [`Root=${TRACE};Parent=${PARENT};Sampled=1`, { traceId: TRACE, parentId: PARENT }],
    [`Root=${TRACE};Parent=${PARENT};Sampled=0`, null],
    [`Root=${TRACE};Sampled=1`, null],
    [undefined, null],
  ])('reads %s', (header, expected) => {
    expect(traceContext(header)).toEqual(expected);
  });
});
