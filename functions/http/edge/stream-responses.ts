import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, StreamifyHandler } from 'aws-lambda';
import type { ProxyHandler } from './dispatch-routes';
import type { RouteContext } from './route-request';

/** What the Lambda runtime calls for a function that streams its responses. */
export type StreamingHandler = StreamifyHandler<APIGatewayProxyEvent, void>;

/**
 * The `handler` of a function that `streams` (api-routes.ts): its routes run through the same
 * edge (`createRoute`: key first, body guard, rate limit, metrics, one error table) and their
 * result is written to Lambda's response stream, which API Gateway's STREAM transfer mode
 * forwards: the status and headers as the runtime's HTTP prelude, then the body, a streamed one
 * chunk by chunk as the route yields it (docs/decisions/2026-11-24-speech-streaming.md).
 * `awslambda` is the runtime's global; outside Lambda, infra/local/lambda-response-streaming.ts
 * installs a faithful copy.
 */
export function streamResponses(handler: ProxyHandler): StreamingHandler {
  return awslambda.streamifyResponse(async (event, responseStream, context) => {
    // The response stream closes when the client goes away: the route hears of it through the
    // context, before its answer is written (a transcription waiting on its provider).
    const clientGone = new AbortController();
    responseStream.once('close', () => clientGone.abort());
    (context as RouteContext).clientGone = clientGone.signal;
    const result = await handler(event, context);
    const stream = awslambda.HttpResponseStream.from(responseStream, {
      statusCode: result.statusCode,
      headers: result.headers ?? {},
    });
    try {
      if (result.stream !== undefined) {
        // A client gone (the stream closed) stops the loop, which stops the body's producer.
        for await (const chunk of result.stream) if (!(await write(stream, chunk))) break;
      } else {
        const encoding = result.isBase64Encoded === true ? 'base64' : 'utf8';
        await write(stream, Buffer.from(result.body, encoding));
      }
    } finally {
      // The prelude goes out with the first write; a body that yielded nothing still needs it.
      await new Promise<void>((resolve) => {
        stream.once('error', () => resolve());
        stream.end(() => resolve());
      });
    }
  });
}

/** Writes `chunk`; false once the stream is closed (the client went away). */
async function write(stream: Writable, chunk: Uint8Array): Promise<boolean> {
  if (stream.destroyed) return false;
  if (chunk.length === 0) return true;
  if (!stream.write(chunk)) await drainedOrClosed(stream);
  return !stream.destroyed;
}

/** Resolves when the stream takes more bytes or goes away; leaves no listener behind. */
export async function drainedOrClosed(stream: Writable): Promise<void> {
  const done = new AbortController();
  const { signal } = done;
  await Promise.race([once(stream, 'drain', { signal }), once(stream, 'close', { signal })]).catch(
    () => undefined,
  );
  done.abort();
}
