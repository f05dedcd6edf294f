import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { localLambdaContext } from '../../../infra/local/api-gateway-event';
import {
  invokeStreaming,
  isStreamingHandler,
} from '../../../infra/local/lambda-response-streaming';

const event = {} as APIGatewayProxyEvent;
const context: Context = localLambdaContext('streaming-test', 1_000);

/** A promise and the function that settles it: the handler waits on it between writes. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('the Lambda runtime’s streaming globals, outside Lambda', () => {
  it('marks a streamified handler as the runtime does, and only that one', () => {
    // Act
    const streamed = awslambda.streamifyResponse(async () => undefined);

    // Assess
    expect(isStreamingHandler(streamed)).toBe(true);
    expect(isStreamingHandler(async () => ({ statusCode: 200, body: '' }))).toBe(false);
  });

  it('hands on the prelude’s status and headers, then each chunk as it is written', async () => {
    // Prepare
    const second = gate();
    const handler = awslambda.streamifyResponse(async (_event, responseStream) => {
      const stream = awslambda.HttpResponseStream.from(responseStream, {
        statusCode: 200,
        headers: { 'X-Audio-Sample-Rate': '16000' },
      });
      stream.write(Buffer.from('first'));
      await second.promise;
      stream.write(Buffer.from('second'));
      stream.end();
    });

    // Act
    const response = await invokeStreaming(handler, event, context);
    const iterator = response.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    // The handler is still waiting: the first chunk came before the second was written.
    second.open();
    const rest: Buffer[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      rest.push(next.value);
    }

    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.headers).toEqual({ 'X-Audio-Sample-Rate': '16000' });
    expect(first.value?.toString()).toBe('first');
    expect(Buffer.concat(rest).toString()).toBe('second');
  });

  it('sends the prelude of a response whose body is empty when the stream ends', async () => {
    // Prepare
    const handler = awslambda.streamifyResponse(async (_event, responseStream) => {
      awslambda.HttpResponseStream.from(responseStream, { statusCode: 204, headers: {} }).end();
    });

    // Act
    const response = await invokeStreaming(handler, event, context);
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk);

    // Assess
    expect(response.statusCode).toBe(204);
    expect(chunks).toEqual([]);
  });

  it('treats a stream without a prelude as a 200 of its content type', async () => {
    // Prepare
    const handler = awslambda.streamifyResponse(async (_event, responseStream) => {
      responseStream.setContentType('text/plain');
      responseStream.end('plain');
    });

    // Act
    const response = await invokeStreaming(handler, event, context);
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk);

    // Assess
    expect(response).toMatchObject({ statusCode: 200, headers: { 'Content-Type': 'text/plain' } });
    expect(Buffer.concat(chunks).toString()).toBe('plain');
  });

  it('rejects when the handler fails before writing anything (Lambda reports a function error)', async () => {
    // Prepare
    const handler = awslambda.streamifyResponse(async () => {
      throw new Error('wiring failed');
    });

    // Act / Assess
    await expect(invokeStreaming(handler, event, context)).rejects.toThrow('wiring failed');
  });
});
