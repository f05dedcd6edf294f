/** The most bytes of an error body read to reshape it: AWS errors are a line or two. */
const ERROR_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * An AWS-shaped error answer (`{"message": ...}` or `{"Message": ...}`, the kind in the
 * `x-amzn-ErrorType` header) in the shape the openai SDK reads (`{"error": {"message", "type"}}`):
 * the SDK drops any other body, and with it the only words that tell a missing model access from
 * a missing IAM action. Success and OpenAI-shaped errors pass unchanged; so does a body over
 * 16 KiB (read no further than that before it is passed on) or one that is not JSON.
 */
export async function awsErrorInOpenAiShape(response: Response): Promise<Response> {
  if (response.ok || response.body === null) return response;
  const announced = Number(response.headers.get('content-length') ?? 0);
  if (announced > ERROR_BODY_LIMIT_BYTES) return response;
  const { status, statusText, headers } = response;
  const read = await readUpTo(response.body, ERROR_BODY_LIMIT_BYTES);
  if (read.rest !== null) {
    // Too long to be AWS's: passed on as it comes, the bytes read first and then the rest.
    return new Response(replayed(read.chunks, read.rest), { status, statusText, headers });
  }
  const text = new TextDecoder().decode(Buffer.concat(read.chunks));
  const rebuilt = (body: string) => new Response(body, { status, statusText, headers });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return rebuilt(text);
  }
  if (typeof parsed !== 'object' || parsed === null || 'error' in parsed) return rebuilt(text);
  const fields = parsed as Record<string, unknown>;
  const message = fields.message ?? fields.Message;
  if (typeof message !== 'string') return rebuilt(text);
  const type = awsErrorType(headers.get('x-amzn-errortype')) ?? awsErrorType(fields.__type);
  const error = { message, ...(type === null ? {} : { type, code: type }) };
  const shaped = new Headers(headers);
  // The length changed; the SDK reads the body as it comes.
  shaped.delete('content-length');
  return new Response(JSON.stringify({ error }), { status, statusText, headers: shaped });
}

/** `ExpiredTokenException:http://internal.amazon.com/...` or `com.amazon#Throttling` → the name. */
function awsErrorType(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const name = value.split(':')[0]?.split('#').pop() ?? '';
  return name === '' ? null : name;
}

/** The chunks read, and the unread rest when more than `limit` bytes came (else `null`). */
interface PartRead {
  readonly chunks: Uint8Array[];
  readonly rest: ReadableStreamDefaultReader<Uint8Array> | null;
}

/** Reads a body until it ends or passes `limit` bytes: a long or endless body is not waited on. */
async function readUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<PartRead> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { chunks, rest: null };
    chunks.push(value);
    received += value.byteLength;
    if (received > limit) return { chunks, rest: reader };
  }
}

/** A stream of the chunks already read, then what the reader still gives; cancelling reaches it. */
function replayed(
  chunks: readonly Uint8Array[],
  rest: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = chunks[next];
      if (chunk !== undefined) {
        next += 1;
        controller.enqueue(chunk);
        return;
      }
      const { done, value } = await rest.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => rest.cancel(reason),
  });
}
