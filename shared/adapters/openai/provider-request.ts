import type http from 'node:http';

/*
 * A fetch request as `node:http` writes it, for providerFetch: its headers, and its body as text,
 * bytes or a stream (anything else encoded as fetch encodes it).
 */

export interface BodyToSend {
  readonly bytes: string | Uint8Array | ReadableStream<Uint8Array> | null;
  readonly contentType: string | null;
}

/**
 * The request's headers as `node:http` takes them, their names in lower case (one entry a name,
 * repeated values joined, as fetch sends them); the SDK's Headers read once, not copied first.
 * Without a prototype, so that no header name reaches Object's.
 */
export function headersToSend(given: NonNullable<RequestInit['headers']>): Record<string, string> {
  const record: Record<string, string> = Object.create(null);
  for (const [name, value] of given instanceof Headers ? given : new Headers(given)) {
    record[name] = value;
  }
  return record;
}

/** A body `node:http` writes as it is (none, text, bytes, a stream); null for one to encode. */
export function plainBody(body: RequestInit['body']): BodyToSend | null {
  if (body === null || body === undefined) return { bytes: null, contentType: null };
  if (typeof body === 'string') return { bytes: body, contentType: 'text/plain;charset=UTF-8' };
  if (body instanceof Uint8Array) return { bytes: body, contentType: null };
  if (body instanceof ReadableStream) return { bytes: body, contentType: null };
  return null;
}

/**
 * Any other body (FormData, Blob, URLSearchParams, ArrayBuffer...), encoded (and a form's
 * boundary chosen) as fetch encodes it, by the platform, whole: what the SDK uploads so (an audio
 * file) is bounded by its caller.
 */
export async function encodedBody(body: RequestInit['body']): Promise<BodyToSend> {
  const encoded = new Response(body);
  return {
    bytes: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type'),
  };
}

/**
 * Writes a streamed request body, chunked; a failure of the stream fails the request, and a
 * request that ends before the stream (a lost connection, an abort) cancels it, unread.
 */
export function sendStream(stream: ReadableStream<Uint8Array>, request: http.ClientRequest): void {
  const reader = stream.getReader();
  request.once('close', () => {
    if (!request.writableFinished) reader.cancel(new Error('the request ended')).catch(() => {});
  });
  const pump = async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!request.write(value)) await drainedOrClosed(request);
    }
    request.end();
  };
  pump().catch((error: unknown) => {
    request.destroy(error instanceof Error ? error : new Error(String(error)));
  });
}

/** Resolves once the request takes writes again, or has closed (and never will). */
function drainedOrClosed(request: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      request.off('drain', settle);
      request.off('close', settle);
      resolve();
    };
    request.on('drain', settle);
    request.on('close', settle);
  });
}
