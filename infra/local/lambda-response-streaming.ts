/**
 * Lambda response streaming outside Lambda. In Lambda the runtime defines the global `awslambda`
 * (`streamifyResponse`, `HttpResponseStream`); here it does not exist, so the local server and
 * the tests install this copy of what the Node.js runtime interface client does:
 * - `streamifyResponse(handler)` marks the handler (the runtime then calls it with a response
 *   stream as its second argument) and returns it;
 * - `HttpResponseStream.from(stream, prelude)` sets the stream's content type to the HTTP
 *   integration type and, before the first byte of the body, writes the prelude as JSON followed
 *   by 8 NUL bytes: what API Gateway (STREAM transfer mode) reads the status and headers from.
 * `invokeStreaming` plays API Gateway's part: it decodes that prelude and hands on the body
 * chunk by chunk, as the handler writes it.
 */
import { PassThrough, type TransformCallback } from 'node:stream';
import type { APIGatewayProxyEvent, Context, StreamifyHandler } from 'aws-lambda';

/** The runtime's marker on a streaming handler (aws-lambda-nodejs-runtime-interface-client). */
const HANDLER_STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
const STREAM_RESPONSE = 'response';
const HTTP_INTEGRATION_TYPE = 'application/vnd.awslambda.http-integration-response';
const DELIMITER = new Uint8Array(8);

type StreamingFunction = StreamifyHandler<APIGatewayProxyEvent, void>;

/** The response stream the runtime hands a streaming handler: bytes go on as they are written. */
class LocalResponseStream extends PassThrough {
  contentType = 'application/octet-stream';
  /** Set by `HttpResponseStream.from`: writes the prelude before the first body byte. */
  _onBeforeFirstWrite: ((write: (chunk: string | Uint8Array) => void) => void) | null = null;
  #started = false;

  setContentType(contentType: string): void {
    this.contentType = contentType;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#start();
    if (chunk.length > 0) this.push(chunk);
    done();
  }

  override _flush(done: TransformCallback): void {
    this.#start();
    done();
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    this._onBeforeFirstWrite?.((chunk) => this.push(Buffer.from(chunk)));
  }
}

const localAwsLambda = {
  streamifyResponse<Handler extends object>(handler: Handler): Handler {
    Object.defineProperty(handler, HANDLER_STREAMING, { value: STREAM_RESPONSE });
    return handler;
  },
  HttpResponseStream: {
    from(stream: LocalResponseStream, prelude: Record<string, unknown>): LocalResponseStream {
      stream.setContentType(HTTP_INTEGRATION_TYPE);
      // JSON.stringify never writes a NUL byte, so the delimiter cannot occur inside it.
      const json = JSON.stringify(prelude);
      stream._onBeforeFirstWrite = (write) => {
        write(json);
        write(DELIMITER);
      };
      return stream;
    },
  },
};

/**
 * Defines the streaming members of the global `awslambda` as the Lambda runtime does; a no-op
 * where they exist. Member by member: other packages put their own on the same object (Powertools'
 * invoke store creates `awslambda` with only `InvokeStore` when it loads first).
 */
export function installLambdaStreamingGlobals(): void {
  const scope = globalThis as { awslambda?: Record<string, unknown> };
  scope.awslambda ??= {};
  scope.awslambda.streamifyResponse ??= localAwsLambda.streamifyResponse;
  scope.awslambda.HttpResponseStream ??= localAwsLambda.HttpResponseStream;
}

/** Whether the runtime would call `handler` with a response stream. */
export function isStreamingHandler<Other>(
  handler: Other | StreamingFunction,
): handler is StreamingFunction {
  return (
    typeof handler === 'function' &&
    (handler as unknown as Record<symbol, unknown>)[HANDLER_STREAMING] === STREAM_RESPONSE
  );
}

/** A streamed response as API Gateway forwards it: status and headers, then the body's chunks. */
export interface StreamedHttpResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: AsyncIterable<Buffer>;
  /** Closes the function's response stream, as when API Gateway's client goes away. */
  cancel(): void;
}

/**
 * Runs a streaming handler and resolves as soon as its prelude is written (the body follows in
 * `body`, chunk by chunk). A handler that fails before writing anything rejects, as Lambda then
 * reports a function error (API Gateway answers 502). `clientGone` closes the response stream,
 * as API Gateway's client going away does, prelude written or not.
 */
export function invokeStreaming(
  handler: StreamingFunction,
  event: APIGatewayProxyEvent,
  context: Context,
  clientGone?: AbortSignal,
): Promise<StreamedHttpResponse> {
  const stream = new LocalResponseStream();
  clientGone?.addEventListener('abort', () => stream.destroy(), { once: true });
  const finished = Promise.resolve(
    handler(event, stream as unknown as awslambda.HttpResponseStream, context),
  );
  finished.then(
    () => {
      if (!stream.writableEnded) stream.end();
    },
    (error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return readPrelude(stream);
}

async function readPrelude(stream: LocalResponseStream): Promise<StreamedHttpResponse> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  for (;;) {
    const next = await iterator.next();
    if (next.done !== true) head = Buffer.concat([head, next.value]);
    if (stream.contentType !== HTTP_INTEGRATION_TYPE) {
      // No prelude: the whole stream is the body of a 200 of the stream's content type.
      const first = head;
      return {
        statusCode: 200,
        headers: { 'Content-Type': stream.contentType },
        body: rest(first, iterator, next.done === true),
        cancel: () => stream.destroy(),
      };
    }
    const end = head.indexOf(DELIMITER);
    if (end >= 0) {
      const prelude = JSON.parse(head.subarray(0, end).toString('utf8')) as {
        statusCode?: number;
        headers?: Record<string, string>;
      };
      return {
        statusCode: prelude.statusCode ?? 200,
        headers: prelude.headers ?? {},
        body: rest(head.subarray(end + DELIMITER.length), iterator, next.done === true),
        cancel: () => stream.destroy(),
      };
    }
    if (next.done === true) throw new Error('the stream ended inside its HTTP prelude');
  }
}

async function* rest(
  first: Buffer,
  iterator: AsyncIterator<Buffer>,
  done: boolean,
): AsyncGenerator<Buffer> {
  if (first.length > 0) yield first;
  if (done) return;
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return;
    yield next.value;
  }
}
