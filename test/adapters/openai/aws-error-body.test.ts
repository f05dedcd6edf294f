import { describe, expect, it } from 'vitest';
import { awsErrorInOpenAiShape } from '../../../shared/adapters/openai/aws-error-body';

const KIB = 1024;

/** A chunked body: the given chunks, then (unless `ends`) nothing ever again. */
function chunkedBody(chunks: readonly string[], ends: boolean) {
  let next = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next];
      next += 1;
      if (chunk !== undefined) controller.enqueue(new TextEncoder().encode(chunk));
      else if (ends) controller.close();
      else return new Promise(() => {});
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, wasCancelled: () => cancelled };
}

const awsError = (body: ReadableStream<Uint8Array> | string) =>
  new Response(body, {
    status: 403,
    headers: { 'x-amzn-errortype': 'AccessDeniedException:http://internal.amazon.com/coral/' },
  });

describe('an AWS error body reshaped for the openai SDK', () => {
  it('becomes {"error": {message, type, code}} when it is AWS-shaped', async () => {
    const shaped = await awsErrorInOpenAiShape(awsError('{"Message":"no model access"}'));
    expect(shaped.status).toBe(403);
    expect(await shaped.json()).toEqual({
      error: {
        message: 'no model access',
        type: 'AccessDeniedException',
        code: 'AccessDeniedException',
      },
    });
  });

  it('is read no further than 16 KiB when it never ends, and passed on as it came', async () => {
    const first = `{"Message":"${'a'.repeat(10 * KIB)}`;
    const second = 'b'.repeat(10 * KIB);
    const body = chunkedBody([first, second], false);
    const passed = await awsErrorInOpenAiShape(awsError(body.stream));
    expect(passed.status).toBe(403);
    const reader = passed.body?.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (seen.length < first.length + second.length) {
      const { value } = (await reader?.read()) ?? {};
      seen += decoder.decode(value);
    }
    expect(seen).toBe(first + second);
    await reader?.cancel();
    expect(body.wasCancelled()).toBe(true);
  });

  it('passes on a long body whole when it ends', async () => {
    const text = `{"Message":"${'c'.repeat(20 * KIB)}"}`;
    const passed = await awsErrorInOpenAiShape(
      awsError(chunkedBody([text.slice(0, 9000), text.slice(9000)], true).stream),
    );
    expect(await passed.text()).toBe(text);
  });
});
