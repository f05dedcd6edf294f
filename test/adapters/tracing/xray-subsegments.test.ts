import { createSocket, type Socket } from 'node:dgram';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDynamoDbClient } from '../../../shared/adapters/dynamodb';
import { OpenAiLanguageModel } from '../../../shared/adapters/openai';
import {
  subsegmentName,
  traceContext,
  traced,
} from '../../../shared/adapters/tracing/xray-subsegments';
import { DYNALITE_REGION, useDynalite } from '../../support/dynalite';
import { FIXED_NOW } from '../../support/engine-fixtures';
import { FakeTiming } from '../../support/fake-timing';
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
  vi.unstubAllGlobals();
  received.length = 0;
});

const traceHeader = (sampled: '0' | '1', root = TRACE) =>
  `Root=${root};Parent=${PARENT};Sampled=${sampled}`;
function traceInvocation(sampled: '0' | '1' = '1'): void {
  vi.stubEnv('_X_AMZN_TRACE_ID', traceHeader(sampled));
  vi.stubEnv('AWS_XRAY_DAEMON_ADDRESS', `127.0.0.1:${daemon.address().port}`);
}
/** Resolves once the daemon has `count` documents: on their arrival, not after a time. */
const documents = (count: number): Promise<Record<string, unknown>[]> =>
  new Promise((resolve) => {
    const check = () => {
      if (received.length < count) return;
      daemon.off('message', onMessage);
      resolve(received);
    };
    // Registered after the collecting listener, so it sees each document already pushed.
    const onMessage = () => check();
    daemon.on('message', onMessage);
    check();
  });

const request = {
  messages: [{ role: 'user' as const, content: 'hi' }],
  tools: [],
  toolChoice: 'auto' as const,
};
const modelNamed = (model: string, timing = new FakeTiming()) =>
  new OpenAiLanguageModel({
    baseURL: llm.baseURL,
    apiKey: 'sk-trace-secret',
    model,
    backoff: { maxAttempts: 2 },
    timing,
  });

describe('X-Ray subsegments of a traced invocation', () => {
  it('reports each DynamoDB call as its own subsegment, under the invocation, named as X-Ray does', async () => {
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
      aws: { operation: 'GetItem', table_name: database().tableName },
    });
    expect(document).not.toHaveProperty('fault');
    expect(document).not.toHaveProperty('error');
    expect(Number(document?.end_time)).toBeGreaterThanOrEqual(Number(document?.start_time));
    client.destroy();
  });

  it('marks a failed condition as an error (a 4xx), not a fault', async () => {
    traceInvocation();
    const client = createDynamoDbClient({ region: DYNALITE_REGION, endpoint: database().endpoint });
    const put = () =>
      client.send(
        new PutItemCommand({
          TableName: database().tableName,
          Item: { pk: { S: 'LOCK#trace' }, sk: { S: 'LOCK' } },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );

    await put();
    await expect(put()).rejects.toThrow(/conditional request failed/i);

    const [, failed] = await documents(2);
    expect(failed).toMatchObject({ name: 'DynamoDB PutItem', error: true });
    expect(failed).not.toHaveProperty('fault');
    expect(failed).not.toHaveProperty('throttle');
    client.destroy();
  });

  it('reports the model call with its URL and the time it took, never its key', async () => {
    traceInvocation();
    // A 429 asking for 250 ms, then the answer: on the fake clock the call takes exactly that.
    llm.enqueue(
      { status: 429, headers: { 'retry-after-ms': '250' } },
      { reply: { content: 'Hi.' } },
    );

    await modelNamed('scripted').complete(request, { timeoutMs: 5_000 });

    const [ok] = await documents(1);
    expect(ok).toMatchObject({
      name: 'model scripted',
      namespace: 'remote',
      http: { request: { url: `${llm.baseURL}/chat/completions`, method: 'POST' } },
      start_time: FIXED_NOW / 1000,
      end_time: (FIXED_NOW + 250) / 1000,
    });
    for (const flag of ['fault', 'error', 'throttle']) expect(ok).not.toHaveProperty(flag);
    expect(JSON.stringify(received)).not.toContain('sk-trace-secret');
  });

  it.each([
    ['a refused request (400) as an error', [{ status: 400 }], { error: true }],
    [
      'rate limiting (429) as a throttle',
      [{ status: 429 }, { status: 429 }],
      { error: true, throttle: true },
    ],
    ['a failing server (503) as a fault', [{ status: 503 }, { status: 503 }], { fault: true }],
  ])('marks %s', async (_case, steps, flags) => {
    traceInvocation();
    llm.enqueue(...steps);

    await modelNamed('scripted')
      .complete(request, { timeoutMs: 5_000 })
      .catch(() => undefined);

    const [failed] = await documents(1);
    const { fault, error, throttle } = failed ?? {};
    expect({ fault, error, throttle }).toEqual({
      fault: undefined,
      error: undefined,
      throttle: undefined,
      ...flags,
    });
  });

  it('names the model call with the characters X-Ray accepts only', async () => {
    traceInvocation();
    llm.enqueue({ reply: { content: 'Hi.' } });

    await modelNamed('qwen2.5:7b (Q4)').complete(request, { timeoutMs: 5_000 });

    const [document] = await documents(1);
    expect(document?.name).toBe('model qwen2.5:7b Q4');
  });

  it('reads the trace of the Lambda invoke store before the environment variable', async () => {
    traceInvocation('0');
    const storeTrace = '1-5759e988-00000000000000000000000a';
    vi.stubGlobal('awslambda', {
      InvokeStore: { getXRayTraceId: () => traceHeader('1', storeTrace) },
    });

    await traced({ name: 'x', namespace: 'remote' }, async () => 42);

    const [document] = await documents(1);
    expect(document).toMatchObject({ trace_id: storeTrace, parent_id: PARENT });
  });

  it('sends nothing for an invocation that is not sampled, and the call still answers', async () => {
    traceInvocation('0');
    const answer = await traced({ name: 'unsampled', namespace: 'remote' }, async () => 42);

    // A sampled call after it: loopback UDP from one socket arrives in order, so once its
    // document is in, anything the unsampled call had sent would be too.
    traceInvocation('1');
    await traced({ name: 'sampled', namespace: 'remote' }, async () => 43);
    await documents(1);

    expect(answer).toBe(42);
    expect(received.map((document) => document.name)).toEqual(['sampled']);
  });
});

describe('subsegmentName', () => {
  it.each([
    ['model qwen2.5:7b (Q4)', 'model qwen2.5:7b Q4'],
    ['model gpt-4.1', 'model gpt-4.1'],
    ['model org/llama_3@8b+chat=1 #2 100% \\ &', 'model org/llama_3@8b+chat=1 #2 100% \\ &'],
    ['model Mistral\tNémo!?*;<>', 'model Mistral Némo'],
    ['(((', 'unnamed'],
    [`model ${'x'.repeat(300)}`, `model ${'x'.repeat(194)}`],
  ])('turns %j into %j', (name, expected) => {
    expect(subsegmentName(name)).toBe(expected);
  });
});

describe('traceContext', () => {
  it.each([
    [
      { Root: TRACE, Parent: PARENT, Sampled: '1' },
      { traceId: TRACE, parentId: PARENT },
    ],
    [{ Root: TRACE, Parent: PARENT, Sampled: '0' }, null],
    [{ Root: TRACE, Sampled: '1' }, null],
    [undefined, null],
  ])('reads %j', (data, expected) => {
    expect(traceContext(data)).toEqual(expected);
  });
});
